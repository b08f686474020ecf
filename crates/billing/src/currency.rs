//! Plan currencies: a plan is priced in an ISO 4217 currency, and checkout
//! (PayU India) charges rupees only, so only a plan priced in INR can be
//! bought through it; a plan in another currency is arranged by staff.

/// The one currency checkout charges.
pub const CHECKOUT_CURRENCY: &str = "INR";

/// The active ISO 4217 currency codes (funds and precious metals left out).
pub const ISO_4217: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD",
    "CDF", "CHF", "CLP", "CNY", "COP", "CRC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD",
    "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ",
    "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD",
    "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR",
    "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR",
    "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN",
    "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR",
    "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB",
    "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS",
    "VES", "VND", "VUV", "WST", "XAF", "XCD", "XCG", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWG",
];

/// `code` (already upper-cased) is an ISO 4217 currency.
pub fn is_iso_4217(code: &str) -> bool {
    ISO_4217.binary_search(&code).is_ok()
}

/// Whether a plan priced in `currency` can be bought through checkout.
pub fn payable_by_checkout(currency: &str) -> bool {
    currency.eq_ignore_ascii_case(CHECKOUT_CURRENCY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sorted_so_lookup_finds_them() {
        assert!(ISO_4217.windows(2).all(|w| w[0] < w[1]));
        for code in ["INR", "USD", "EUR", "GBP", "JPY", "AED"] {
            assert!(is_iso_4217(code), "{code}");
        }
        for code in ["XYZ", "ABC", "US", "usd", "RUPEE"] {
            assert!(!is_iso_4217(code), "{code}");
        }
    }
}
