// The rules pages (templates/rules/): each section folds under its heading (<details>), so a phone
// shows the page's outline first. A link into a section (/rules/mokuru#witness, from a room's
// options) opens the section it lands in; two buttons open or fold them all; printing opens them.

const sections = () => [...document.querySelectorAll("details.rules-section")];

/** Opens the section holding the element the address names, and brings it into view. */
function openTarget(hash) {
  if (!hash || hash === "#") return;
  let target = null;
  try {
    target = document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return; // an address that is no element's id
  }
  if (!target) return;
  for (let node = target; node; node = node.parentElement?.closest("details") ?? null) {
    if (node.tagName === "DETAILS") node.open = true;
  }
  target.scrollIntoView({ block: "start" });
}

function setAll(open) {
  for (const section of sections()) section.open = open;
}

const folds = document.querySelector(".rules-folds");
if (folds && sections().length) {
  folds.hidden = false;
  folds.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-folds]");
    if (button) setAll(button.dataset.folds === "open");
  });
}

openTarget(location.hash);
addEventListener("hashchange", () => openTarget(location.hash));
// A link to the section already named by the address changes no hash: opened all the same.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.('a[href^="#"]');
  if (link) openTarget(link.getAttribute("href"));
});
let printed = [];
addEventListener("beforeprint", () => {
  printed = sections().filter((section) => !section.open);
  setAll(true);
});
addEventListener("afterprint", () => {
  for (const section of printed) section.open = false;
  printed = [];
});
