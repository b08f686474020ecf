//! Request extractors: the signed-in user and the client's IP.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::Method;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{FromRequest, HttpRequest, web};
use ca_auth::AuthError;
use ca_auth::entities::user;

use crate::error::ApiError;
use crate::state::AppState;

/// Return to admin: ends a login-as session, recorded as such.
const RETURN_PATH: &str = "/api/admin/return";
/// What a staff member past their grace period without two-factor sign-in
/// may still reach: their own account (who they are, setting up the second
/// factor, signing out).
const OWN_ACCOUNT_PREFIX: &str = "/api/auth/";

/// The user behind a valid, unrevoked bearer token, and the superuser
/// acting as them when the session came from "login as user".
pub struct CurrentUser(pub user::Model, pub Option<String>);

impl CurrentUser {
    /// Refuses what only the account's owner may do (their password, their
    /// sessions, their second factor) when staff are signed in as them.
    pub fn owner_in_person(&self) -> Result<(), ApiError> {
        match self.1 {
            Some(_) => Err(AuthError::NotWhileActingAs.into()),
            None => Ok(()),
        }
    }

    /// The caller as the admin area sees them.
    pub fn actor(&self) -> ca_admin::Actor {
        ca_admin::Actor {
            user: self.0.clone(),
            acting_for: self.1.clone(),
        }
    }
}

/// The bearer token of a request, if it carries one.
pub fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let token = token.trim();
    (!token.is_empty()).then(|| token.to_string())
}

impl FromRequest for CurrentUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = bearer(req);
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let method = req.method().clone();
        let path = req.path().to_string();
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::internal("application state missing"))?;
            let token = token.ok_or(AuthError::MissingToken)?;
            let (user, acting_for) = state.auth.authenticate_session(&token).await?;
            // Staff must have two-factor sign-in once their grace period is
            // over: until then they can only set it up.
            if acting_for.is_none() && !path.starts_with(OWN_ACCOUNT_PREFIX) {
                state.auth.check_two_factor_enrolment(&user).await?;
            }
            let current = CurrentUser(user, acting_for);
            // What a superuser changes while signed in as someone is on record
            // (Return to admin has an entry of its own).
            if current.1.is_some()
                && !matches!(method, Method::GET | Method::HEAD)
                && path != RETURN_PATH
            {
                state
                    .admin
                    .record_acting(&current.actor(), method.as_str(), &path)
                    .await?;
            }
            Ok(current)
        })
    }
}

/// The client's IP: the socket peer, or the forwarded address when the
/// server sits behind a trusted proxy (`CA_TRUST_PROXY`).
pub struct ClientIp(pub String);

impl ClientIp {
    /// What per-address limits count by: an IPv4 address, or the /64 an
    /// IPv6 address belongs to. One IPv6 subscriber holds a whole /64 and
    /// can pick a new address for every request, so counting whole
    /// addresses would let one machine past every per-address limit (and
    /// use up an owner's monthly visitors).
    pub fn limit_key(&self) -> String {
        match self.0.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_none() => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
            Ok(std::net::IpAddr::V6(v6)) => v6
                .to_ipv4_mapped()
                .map_or_else(|| self.0.clone(), |v4| v4.to_string()),
            _ => self.0.clone(),
        }
    }
}

/// The address the trusted proxy in front of the server saw: the last
/// `X-Forwarded-For` entry (a proxy appends the peer it saw; the entries
/// before it are whatever the client sent, so they are never taken), or
/// the `Forwarded`/`X-Real-IP` address when there is no such header.
fn forwarded_peer(req: &HttpRequest) -> Option<String> {
    let xff: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    match xff.last() {
        Some(last) => Some((*last).to_string()),
        None => req
            .connection_info()
            .realip_remote_addr()
            .map(str::to_string),
    }
}

impl FromRequest for ClientIp {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let trust_proxy = req
            .app_data::<web::Data<AppState>>()
            .is_some_and(|s| s.config.trust_proxy);
        let raw = if trust_proxy {
            forwarded_peer(req)
        } else {
            req.peer_addr().map(|a| a.ip().to_string())
        };
        let ip = raw
            .map(|addr| strip_port(&addr))
            .unwrap_or_else(|| "unknown".to_string());
        std::future::ready(Ok(ClientIp(ip)))
    }
}

fn strip_port(addr: &str) -> String {
    if let Ok(sock) = addr.parse::<std::net::SocketAddr>() {
        return sock.ip().to_string();
    }
    addr.to_string()
}

/// The buyer's browser as checkout sees it (user agent, address, the
/// dashboard page it started from), kept with the payment so the server's
/// own Purchase event carries it, as Meta asks of website events.
pub struct BuyerBrowser(pub ca_billing::payments::Browser);

impl FromRequest for BuyerBrowser {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let header = |name: actix_web::http::header::HeaderName| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let own = req
            .app_data::<web::Data<AppState>>()
            .map(|s| s.config.public_url())
            .unwrap_or_default();
        let ip = ClientIp::from_request(req, payload)
            .into_inner()
            .map(|ip| ip.0)
            .ok()
            .filter(|ip| ip != "unknown");
        std::future::ready(Ok(BuyerBrowser(ca_billing::payments::Browser {
            user_agent: header(actix_web::http::header::USER_AGENT),
            ip,
            page: header(actix_web::http::header::REFERER)
                .filter(|p| !own.is_empty() && p.starts_with(&own)),
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::ClientIp;

    #[test]
    fn limits_count_ipv6_by_its_64_and_ipv4_by_address() {
        let key = |ip: &str| ClientIp(ip.to_string()).limit_key();
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:77:1::1"), "2001:db8:77:1::/64");
        assert_eq!(key("2001:0db8:0077:0001:ffff:1:2:3"), "2001:db8:77:1::/64");
        assert_ne!(key("2001:db8:77:2::1"), key("2001:db8:77:1::1"));
        assert_eq!(key("::ffff:198.51.100.4"), "198.51.100.4");
        assert_eq!(key("unknown"), "unknown");
    }
}
