//! What billing needs from the server's configuration: which hosted payment
//! page checkout uses, this server's own address, the simulator's keys and
//! the seller printed on invoices.

use crate::entities::payment::CheckoutMode;
use crate::payu::Credentials;

/// PayU's window: a checkout still unpaid this long after it was made is
/// not completed, and its payment page is no longer served.
pub const EXPIRE_AFTER_MINUTES: i64 = 30;

/// Which hosted payment page checkout uses.
#[derive(Debug, Clone)]
pub enum Gateway {
    /// PayU itself, in its test environment or live.
    Payu {
        credentials: Credentials,
        payment_url: String,
        verify_url: String,
        live: bool,
    },
    /// The built-in stand-in served by this server at `/payment/simulator`.
    Simulator,
}

/// What billing needs from the configuration.
#[derive(Debug, Clone)]
pub struct BillingConfig {
    /// This server's own URL (return URLs, the simulator's address).
    pub public_url: String,
    pub gateway: Gateway,
    /// The simulator's key and salt (also checks callbacks of simulated payments).
    pub simulator: Credentials,
    /// The demo page may activate plans without charging (no PayU key set).
    pub demo_enabled: bool,
    pub seller: crate::dto::Seller,
    /// How invoices are taxed.
    pub tax: TaxRules,
}

/// How plans are taxed and invoiced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxRules {
    /// The GST rate in hundredths of a percent (18 % is 1800).
    pub gst_rate_bp: i64,
    /// Plan prices include GST (the tax is taken out of the price paid);
    /// otherwise checkout adds it to the price.
    pub prices_include_gst: bool,
    /// The services accounting code printed on invoices.
    pub sac: String,
}

impl Default for TaxRules {
    fn default() -> Self {
        Self {
            gst_rate_bp: 1800,
            prices_include_gst: true,
            sac: "998314".into(),
        }
    }
}

impl BillingConfig {
    /// The mode new checkouts are made in.
    pub fn mode(&self) -> CheckoutMode {
        match &self.gateway {
            Gateway::Payu { live: true, .. } => CheckoutMode::Live,
            Gateway::Payu { live: false, .. } => CheckoutMode::Test,
            Gateway::Simulator => CheckoutMode::Simulator,
        }
    }
}
