// Puts the page's theme on <html data-theme> before the page is first painted, so a dark page never
// flashes light: a classic script in <head> (a module runs only once the page is parsed). The theme
// is the player's choice from the footer's switch (theme-switch.js, same key), else the system's
// light or dark preference; with storage blocked, the system's.
(function () {
  var choice = null;
  try {
    choice = window.localStorage.getItem("motable.theme");
  } catch (blocked) {
    choice = null;
  }
  if (choice !== "light" && choice !== "dark") {
    choice = window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  document.documentElement.dataset.theme = choice;
  var bar = document.querySelector('meta[name="theme-color"]');
  if (bar && choice === "dark") bar.content = "#0b2217";
})();
