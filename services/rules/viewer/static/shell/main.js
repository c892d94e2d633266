/* The viewer's entry point: routes #/ (the index) and #/match/<id> (one match). */
import { fill } from "./dom.js";
import { showIndex } from "./index.js";
import { errorBox, showMatch } from "./match.js";

const app = document.getElementById("app");
let teardown = () => {};
let generation = 0;  // a page still loading when the route changed must not draw over the new one

async function route() {
  teardown();
  teardown = () => {};
  const mine = ++generation;
  const current = () => mine === generation;
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, qs] = hash.split("?");
  const m = path.match(/^\/match\/(.+)$/);
  try {
    if (m) await showMatch(app, decodeURIComponent(m[1]), (fn) => { teardown = fn; });
    else await showIndex(app, new URLSearchParams(qs || ""), current);
  } catch (err) {
    if (current()) fill(app, errorBox(err));
  }
}

window.addEventListener("hashchange", route);
route();
