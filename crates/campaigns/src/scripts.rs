//! The snippets an owner pastes into their site.

/// The widget tag for every page of the owner's site.
pub fn widget_script(public_url: &str, campaign_id: &str) -> String {
    let base = public_url.trim_end_matches('/');
    format!(
        "<script src=\"{base}/widget/ca-widget.js\" data-campaign-id=\"{campaign_id}\" data-api-url=\"{base}\" async defer></script>"
    )
}

/// The thank-you page snippet: loads the widget in conversion mode and records
/// the purchase with `caTrack`, queued until the script has loaded.
pub fn conversion_script(public_url: &str, campaign_id: &str) -> String {
    let base = public_url.trim_end_matches('/');
    format!(
        "<!-- ConvertAssist conversion tracking: put this on your order confirmation (thank-you) page -->\n\
<script>\n\
  window.caTrack = window.caTrack || function () {{ (window.caTrackQueue = window.caTrackQueue || []).push(arguments); }};\n\
  // Replace the values with your order's total (in rupees) and id.\n\
  caTrack('purchase', {{ value: 1499, currency: 'INR', orderId: 'ORDER-12345' }});\n\
</script>\n\
<script src=\"{base}/widget/ca-widget.js\" data-campaign-id=\"{campaign_id}\" data-api-url=\"{base}\" data-mode=\"conversion\" async defer></script>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widget_tag_is_exact() {
        assert_eq!(
            widget_script("https://app.example.in/", "c1"),
            "<script src=\"https://app.example.in/widget/ca-widget.js\" data-campaign-id=\"c1\" data-api-url=\"https://app.example.in\" async defer></script>"
        );
    }

    #[test]
    fn conversion_snippet_tracks_a_purchase() {
        let s = conversion_script("https://app.example.in", "c1");
        assert!(s.contains("caTrack('purchase'"));
        assert!(s.contains("data-campaign-id=\"c1\""));
        assert!(s.contains("data-mode=\"conversion\""));
    }
}
