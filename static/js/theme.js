// The page's theme, without the DOM: the player's choice (Auto follows the system), the theme it
// gives, and the colour of the browser's bar for it.

export const THEME_KEY = "motable.theme";

/** The bar colour (meta theme-color) for each theme: the felt's darkest green. */
export const BAR_COLOURS = { light: "#113e29", dark: "#0b2217" };

/** What a stored value means: "light" or "dark" when chosen, else "auto". */
export function choiceFrom(stored) {
  return stored === "light" || stored === "dark" ? stored : "auto";
}

/** The theme a choice gives: Auto follows the system. */
export function themeFor(choice, systemDark) {
  if (choice === "light" || choice === "dark") return choice;
  return systemDark ? "dark" : "light";
}

/** The player's choice kept in `store` (a Storage-like object); never throws. */
export function readChoice(store) {
  try {
    return choiceFrom(store.getItem(THEME_KEY));
  } catch {
    return "auto";
  }
}

/** Keeps the choice; Auto forgets it, so the page follows the system again. Never throws. */
export function saveChoice(store, choice) {
  try {
    if (choiceFrom(choice) === "auto") store.removeItem(THEME_KEY);
    else store.setItem(THEME_KEY, choice);
  } catch {
    // Storage withdrawn while the page was open: the choice holds for this page only.
  }
}
