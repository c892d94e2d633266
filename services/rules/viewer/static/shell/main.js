/* The viewer's entry point: routes #/ (the index), #/match/<id> (one match), #/tournaments (the
 * tournament list) and #/tournament/<id> (one tournament). */
import { fill } from "./dom.js";
import { showIndex } from "./index.js";
import { errorBox, showMatch } from "./match.js";
import { showTournament } from "./tournament.js";
import { showTournaments } from "./tournaments.js";

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
  const t = path.match(/^\/tournament\/(.+)$/);
  try {
    if (m) await showMatch(app, decodeURIComponent(m[1]), (fn) => { teardown = fn; });
    else if (t) await showTournament(app, decodeURIComponent(t[1]), (fn) => { teardown = fn; }, current);
    else if (path === "/tournaments") await showTournaments(app, new URLSearchParams(qs || ""), current);
    else await showIndex(app, new URLSearchParams(qs || ""), current);
  } catch (err) {
    if (current()) fill(app, errorBox(err));
  }
}

window.addEventListener("hashchange", route);
route();
