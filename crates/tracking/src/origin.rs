//! Which pages may report a campaign's events: its website and subdomains,
//! and this server's own Preview page (whose events are never counted).

/// Whether `origin` is this server's own page (the owner's Preview) and not
/// the campaign's website: what the widget reports from there is the owner
/// trying their campaign, never counted in its figures.
pub fn is_preview(origin: &str, website_url: &str, public_url: &str) -> bool {
    let (Ok(origin), Ok(own)) = (url::Url::parse(origin), url::Url::parse(public_url)) else {
        return false;
    };
    let site_is_ours = url::Url::parse(website_url).is_ok_and(|w| w.origin() == own.origin());
    origin.origin() == own.origin() && !site_is_ours
}

/// Whether `origin` may report events for a campaign on `website_url`: the
/// website's host or one of its subdomains (a leading `www.` is ignored), or
/// this server's own origin.
pub fn origin_allowed(origin: &str, website_url: &str, public_url: &str) -> bool {
    let Ok(origin) = url::Url::parse(origin) else {
        return false;
    };
    if !matches!(origin.scheme(), "http" | "https") {
        return false;
    }
    if let Ok(own) = url::Url::parse(public_url)
        && own.origin() == origin.origin()
    {
        return true;
    }
    let Some(host) = origin.host_str().map(str::to_lowercase) else {
        return false;
    };
    let Some(site) = url::Url::parse(website_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_lowercase))
    else {
        return false;
    };
    let site = site.strip_prefix("www.").unwrap_or(&site).to_string();
    host == site || host.ends_with(&format!(".{site}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_of_the_site_its_subdomains_and_ours_are_allowed() {
        let site = "https://www.kesar.example.in/shop";
        let own = "https://app.convertassist.in";
        assert!(origin_allowed("https://kesar.example.in", site, own));
        assert!(origin_allowed("https://www.kesar.example.in", site, own));
        assert!(origin_allowed(
            "http://blog.kesar.example.in:8080",
            site,
            own
        ));
        assert!(origin_allowed("https://app.convertassist.in", site, own));
        assert!(!origin_allowed("https://evilkesar.example.in", site, own));
        assert!(!origin_allowed(
            "https://kesar.example.in.evil.com",
            site,
            own
        ));
        assert!(!origin_allowed("null", site, own));
        assert!(is_preview("https://app.convertassist.in", site, own));
        assert!(!is_preview("https://kesar.example.in", site, own));
        assert!(!is_preview("https://app.convertassist.in:8443", site, own));
        assert!(!is_preview(
            "https://app.convertassist.in",
            "https://app.convertassist.in/shop",
            own
        ));
        assert!(!origin_allowed(
            "https://app.convertassist.in.evil.com",
            site,
            own
        ));
    }
}
