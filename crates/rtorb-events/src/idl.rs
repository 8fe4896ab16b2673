//! The code `rtorb-idl` generates in `build.rs`: from
//! `idl/CosEventChannelAdmin.idl` (and the `CosEventComm.idl` it
//! includes) the modules `cos_event_comm` and `cos_event_channel_admin`;
//! from `idl/RtorbEvent.idl` the module `rtorb_event`, the data of the
//! real-time channel.

include!(concat!(env!("OUT_DIR"), "/CosEventChannelAdmin.rs"));
include!(concat!(env!("OUT_DIR"), "/RtorbEvent.rs"));
