/** Country codes offered at registration (seed 000 §5), India first. */
export const COUNTRY_CODES = ["+91", "+1", "+44", "+86", "+81", "+49", "+33", "+39", "+7", "+52"];
