/* The API docs pages (/api/docs/: Swagger UI, /api/redoc/: ReDoc), made accessible where their
   own markup is not (axe-core finds nothing on either page; tests/browser/test_public_accessibility):
   - ReDoc is started here (its settings cannot be an inline script under the site's policy),
     with a theme whose colours read at WCAG AA contrast;
   - headings skip no level: each kind of heading the tools draw gets the level it has in the
     page's outline (aria-level), as the tools redraw them;
   - Swagger UI's unnamed selects (a parameter's choices) are named after their parameter, and
     its title block is the banner landmark. */
"use strict";

const LEVELS = [
  // Swagger UI: the title is h1, each tag h3, an operation's parts h4; the models h4.
  ["#swagger-ui h3.opblock-tag", "2"],
  ["#swagger-ui .opblock h4, #swagger-ui .opblock-section-header h4", "3"],
  ["#swagger-ui section.models > h4", "2"],
  // ReDoc: a tag is h1, an operation h2, its parts (parameters, body, responses) h5.
  ["#redoc-container h5", "3"],
];

function levelHeadings(root) {
  for (const [selector, level] of LEVELS) {
    for (const heading of root.querySelectorAll(selector)) {
      if (heading.getAttribute("aria-level") !== level) heading.setAttribute("aria-level", level);
    }
  }
  // Swagger UI draws a main of its own for the operations; its title and description above it
  // are the page's banner, so that nothing stands outside a landmark.
  const info = root.querySelector("#swagger-ui .information-container:not([role])");
  if (info) info.setAttribute("role", "banner");
  // A code sample too wide for a phone scrolls: it takes the focus, so a keyboard scrolls it.
  for (const sample of root.querySelectorAll("#swagger-ui pre:not([tabindex])")) {
    sample.setAttribute("tabindex", "0");
  }
  for (const select of root.querySelectorAll("#swagger-ui select:not([aria-label])")) {
    const row = select.closest("tr[data-param-name]");
    const name = row ? row.dataset.paramName : select.closest(".content-type-wrapper, .response-control-media-type") ? "media type" : "choice";
    select.setAttribute("aria-label", name);
  }
}

function keepAccessible() {
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      levelHeadings(document);
    });
  }).observe(document.body, { childList: true, subtree: true });
  levelHeadings(document);
}

const redoc = document.getElementById("redoc-container");
if (redoc && window.Redoc) {
  window.Redoc.init(
    redoc.dataset.specUrl,
    {
      theme: {
        colors: {
          primary: { main: "#1f5faa" },
          success: { main: "#17784d" },
          warning: { main: "#8a5300" },
          error: { main: "#b3261e" },
          text: { primary: "#1f1f1f", secondary: "#4a4a4a" },
          http: {
            get: "#1f5faa", post: "#17784d", put: "#8a5300", options: "#5b4b8a",
            patch: "#0d6b5f", delete: "#b3261e", basic: "#4a4a4a", link: "#1f5faa", head: "#6a3d9a",
          },
        },
        typography: { code: { color: "#8a1f4a" }, links: { color: "#1f5faa" } },
        rightPanel: { backgroundColor: "#263238", textColor: "#ffffff" },
      },
    },
    redoc,
  );
}
keepAccessible();
