//! What `rtorb events push` and `rtorb events listen` share: an ORB made
//! from `-ORB` options (and the configuration file they or
//! `RTORB_CONFIG` name), and the event channel a URL names.

use std::sync::Arc;

use rtorb::orb::Orb;
use rtorb_events::cos_event_channel_admin::EventChannel;

/// An ORB with the `-ORB` options `orb_args` (and `-ORBEndpoint
/// endpoint`, if given); any other argument is refused.
pub(crate) fn orb_from(endpoint: Option<&str>, orb_args: &[String]) -> Result<Arc<Orb>, String> {
    let mut args = vec!["rtorb".to_owned()];
    if let Some(endpoint) = endpoint {
        args.extend(["-ORBEndpoint".to_owned(), endpoint.to_owned()]);
    }
    args.extend(orb_args.iter().cloned());
    let (orb, rest) = Orb::init(args).map_err(|e| format!("cannot make the ORB: {e}"))?;
    if let Some(extra) = rest.get(1) {
        return Err(format!("{extra:?} is not an ORB option (-ORB...)"));
    }
    Ok(Arc::new(orb))
}

/// The event channel at `url` (`IOR:`, `corbaloc:`, `corbaname:` or a
/// file), asked whether it is one.
pub(crate) fn channel_at(orb: &Orb, url: &str) -> Result<EventChannel, String> {
    let object = orb
        .string_to_object(url)
        .map_err(|e| format!("{url}: {e}"))?;
    object
        .narrow::<EventChannel>()
        .map_err(|e| format!("cannot reach the event channel {url}: {e}"))?
        .ok_or_else(|| format!("{url} is not a CosEventChannelAdmin::EventChannel"))
}
