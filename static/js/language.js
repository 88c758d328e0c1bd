// The footer's language switch: the reader's choice, kept for this browser in the cookie the server
// reads (app/i18n.py), then the page again in that language. Never the room's: each person at a
// table reads it in their own.
const select = document.getElementById("language-switch");
select?.addEventListener("change", () => {
  const year = 365 * 24 * 3600;
  document.cookie = `motable_lang=${encodeURIComponent(select.value)}; path=/; max-age=${year}; samesite=lax`;
  location.reload();
});
