/* Which renderer draws a game: its module static/games/<id>.js when config.json says it has one,
 * else the generic one. A renderer that throws falls back to the generic one for that call, so a
 * bug in a game's drawing never blanks the page. */
import generic from "./generic.js";
import { viewerConfig } from "./api.js";

const loaded = new Map();

export async function rendererFor(gameId) {
  if (!loaded.has(gameId)) {
    loaded.set(gameId, (async () => {
      const { games } = await viewerConfig();
      const entry = games.find((g) => g.id === gameId);
      if (!entry || !entry.renderer) return generic;
      try {
        return (await import(`../games/${encodeURIComponent(gameId)}.js`)).default;
      } catch (err) {
        console.warn(`renderer of ${gameId} failed to load`, err);
        return generic;
      }
    })());
  }
  return loaded.get(gameId);
}

/** renderer[method](...args), or the generic one's when it is missing, throws or returns nothing. */
export function call(renderer, method, ...args) {
  if (renderer !== generic && typeof renderer[method] === "function") {
    try {
      const out = renderer[method](...args);
      if (out !== undefined && out !== null) return out;
    } catch (err) {
      console.warn(`${method} failed`, err);
    }
  }
  return generic[method](...args);
}
