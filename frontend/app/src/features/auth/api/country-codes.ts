/** Country codes offered at registration; India first, as most owners are Indian businesses. */
export const COUNTRY_CODES = ["+91", "+1", "+44", "+86", "+81", "+49", "+33", "+39", "+7", "+52"];
