/* The viewer's entry point: routes #/ (the index) and #/match/<id> (one match). */
import { fill } from "./dom.js";
import { showIndex } from "./index.js";
import { errorBox, showMatch } from "./match.js";

const app = document.getElementById("app");
let teardown = () => {};

async function route() {
  teardown();
  teardown = () => {};
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, qs] = hash.split("?");
  const m = path.match(/^\/match\/(.+)$/);
  try {
    if (m) await showMatch(app, decodeURIComponent(m[1]), (fn) => { teardown = fn; });
    else await showIndex(app, new URLSearchParams(qs || ""));
  } catch (err) {
    fill(app, errorBox(err));
  }
}

window.addEventListener("hashchange", route);
route();
