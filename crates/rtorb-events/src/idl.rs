//! The code `rtorb-idl` generates from `idl/CosEventChannelAdmin.idl`
//! (and the `CosEventComm.idl` it includes) in `build.rs`: the modules
//! `cos_event_comm` and `cos_event_channel_admin`.

include!(concat!(env!("OUT_DIR"), "/CosEventChannelAdmin.rs"));
