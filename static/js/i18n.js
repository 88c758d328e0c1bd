// The page's words in the reader's language: the catalogue the page loaded in its head as a
// classic script (static/i18n/<lang>.js, which sets globalThis.motableCatalogue; none for English,
// the words as written), there before any module runs (static/js/i18n-core.js does the work).
import { translator } from "./i18n-core.js";

const words = translator(globalThis.motableCatalogue ?? null);
export const lang = words.lang;
export const t = words.t;
export const tn = words.tn;
export const tp = words.tp;
