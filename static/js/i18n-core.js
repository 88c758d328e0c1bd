// The browser's words in the reader's language, without the page: a catalogue (made from the same
// gettext catalogues as the server's words, static/i18n/<lang>.js) turned into t() and tn().
//
// t("Your turn") gives the catalogue's translation, or the English as written when there is none;
// t("{name} joined", { name }) fills each {name}. tn("{num} card", "{num} cards", n) picks the form
// for n with the language's plural rule (Intl.PluralRules), {num} being n in the reader's digits.
// tp("scores", "You") is t() for words a context tells apart.

// gettext numbers a language's plural forms in the order CLDR lists its categories.
const ORDER = ["zero", "one", "two", "few", "many", "other"];

// French drops the vowel of "de" and "que" before a word that starts with one: "le tour d’Ann",
// "plus d’orques", "qu’Ann". Not before h or y: whether a name's h is silent, or its y a vowel, its
// letters cannot tell ("de Hugo" and "de Yann" stay as they are).
const ELIDED = /(^|[^\p{L}])([dD]e|[qQ]ue) \{(\w+)\}/gu;
const VOWEL = /^[aeiouàâäæéèêëîïôöœùûü]/iu;

export function elide(lang, text, params) {
  if (lang !== "fr" || !params) return text;
  return text.replace(ELIDED, (whole, before, word, key) =>
    key in params && VOWEL.test(String(params[key])) ? `${before}${word.slice(0, -1)}’{${key}}` : whole,
  );
}

export function fill(text, params, lang = "en") {
  if (!params) return text;
  return elide(lang, text, params).replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

// The index of n's form among a catalogue's `plurals` forms, for `lang`.
export function pluralIndex(lang, plurals, n) {
  if (plurals <= 1) return 0;
  const rules = new Intl.PluralRules(lang);
  const category = rules.select(n);
  if (plurals === 2) return category === "one" ? 0 : 1;
  const categories = ORDER.filter((c) => rules.resolvedOptions().pluralCategories.includes(c));
  return Math.min(Math.max(categories.indexOf(category), 0), plurals - 1);
}

export function translator(catalogue) {
  const lang = catalogue?.lang || "en";
  const messages = catalogue?.messages || {};
  const plurals = catalogue?.plurals || 2;
  const digits = new Intl.NumberFormat(lang);
  function t(message, params) {
    const found = messages[message];
    return fill(typeof found === "string" ? found : message, params, lang);
  }
  // The same English words said in two places a language words differently ("You" as the one
  // who approved, "You" in a list of scores): `context` tells them apart, as gettext's msgctxt.
  function tp(context, message, params) {
    const found = messages[`${context}\u0004${message}`];
    return fill(typeof found === "string" ? found : message, params, lang);
  }
  function tn(singular, plural, n, params) {
    const forms = messages[singular];
    const text = Array.isArray(forms)
      ? forms[pluralIndex(lang, plurals, n)]
      : pluralIndex("en", 2, n) === 0 ? singular : plural;
    return fill(text, { num: digits.format(n), ...params }, lang);
  }
  return { lang, t, tn, tp };
}
