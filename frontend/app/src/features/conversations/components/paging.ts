/** When the conversation screens load more as they scroll, and how they fold on small screens. */

/** Pause before an older batch of messages arrives, so the loading state is visible. */
export const OLDER_DELAY_MS = 500;
/** Scrolling within this many pixels of the top of the messages loads the older batch. */
export const LOAD_OLDER_BELOW = 100;
/** The scroll-to-top button appears once the messages are scrolled this many pixels down. */
export const SCROLL_TOP_AFTER = 300;
/** Below 768 px, the app's small-screen breakpoint, the detail folds the visitor's details. */
export const NARROW = "(max-width: 767px)";
/**
 * Below 1024 px the list and the detail stack instead of splitting: beside the 260 px sidebar a
 * tablet leaves under 500 px, too little for both (the list's filters and times, and the
 * messages, would be cut).
 */
export const STACKED = "(max-width: 1023px)";
