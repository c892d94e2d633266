/* Cards drawn as cards: the printed name big, values as badges, the text in a tooltip and in a
 * detail panel shown on click/focus; face down where hidden. Each card carries data-card (its
 * content id) so tests and the shell's play controls can find it. */
import { h } from "./dom.js";
import { words } from "./words.js";

/** The catalog entry for a content id or a physical instance ("orc-goblin#2" -> "orc-goblin"). */
export function lookup(ctx, id) {
  const cards = (ctx.catalog && ctx.catalog.cards) || {};
  if (id === null || id === undefined) return { id: null, def: null };
  const s = String(id);
  if (cards[s]) return { id: s, def: cards[s] };
  const base = s.split("#")[0];
  return { id: base, def: cards[base] || null };
}

/** The printed name of a card (its id in words when the catalog does not know it). */
export function cardName(ctx, id) {
  const { def } = lookup(ctx, id);
  return def ? def.name : words(String(id).split("#")[0]);
}

function valuesText(values) {
  return Object.entries(values || {}).filter(([, v]) => v !== null && v !== undefined && typeof v !== "object")
    .map(([k, v]) => `${words(k)} ${v}`);
}

/** One card. opts: faceDown (drawn as a back), count (a badge ×n), detail (extra line), label. */
export function card(ctx, contentId, opts = {}) {
  if (opts.faceDown) {
    return h("span", { class: "card face-down", title: opts.label || "a hidden card", "aria-label": opts.label || "hidden card" },
      h("span", { class: "card-name", text: opts.label || "?" }),
      opts.count ? h("span", { class: "card-count", text: `×${opts.count}` }) : null);
  }
  const { id, def } = lookup(ctx, contentId);
  const name = def ? def.name : words(String(contentId).split("#")[0]);
  const values = def ? valuesText(def.values) : [];
  const tip = [name, values.join(", "), def && def.text, opts.detail, def && def.source ? `(${def.source} content)` : null]
    .filter(Boolean).join("\n");
  const node = h("span", { class: `card${def && def.kind ? " kind-" + def.kind : ""}`, "data-card": id,
    "data-instance": String(contentId) !== id ? String(contentId) : null, tabindex: 0, title: tip },
    h("span", { class: "card-name", text: name }),
    values.length ? h("span", { class: "card-values", text: values.join(" · ") }) : null,
    opts.count && opts.count > 1 ? h("span", { class: "card-count", text: `×${opts.count}` }) : null,
    opts.detail ? h("span", { class: "card-detail", text: opts.detail }) : null);
  node.addEventListener("click", () => showDetail(node, name, values, def));
  return node;
}

function showDetail(node, name, values, def) {
  const panel = document.getElementById("card-detail");
  if (!panel || node.classList.contains("playable")) return;
  panel.replaceChildren(h("b", { text: name }), values.length ? h("div", { class: "muted", text: values.join(" · ") }) : null,
    def && def.text ? h("p", { text: def.text }) : null,
    def && def.source ? h("div", { class: "muted", text: `source: ${def.source}` }) : null);
  panel.hidden = false;
}

/** A stack of face-down cards with a label and how many ("Deck 17"). */
export function pile(ctx, label, count) {
  return h("span", { class: "pile", title: `${label}: ${count}` },
    h("span", { class: "pile-label", text: label }), h("span", { class: "pile-count", text: count }));
}

/** Cards in a row; an empty row says so. */
export function row(ctx, ids, opts = {}) {
  if (!ids || !ids.length) return h("span", { class: "muted", text: opts.empty || "none" });
  return h("span", { class: "cards" }, ids.map((id) => card(ctx, id, opts)));
}

/** A hand or deck the viewer may not see: that many backs (up to 12) and the count. */
export function hidden(ctx, label, n) {
  if (!n) return h("span", { class: "muted", text: "none" });
  const backs = Array.from({ length: Math.min(n, 12) }, () => h("span", { class: "card face-down mini", "aria-hidden": "true" }));
  return h("span", { class: "hidden-cards", title: `${n} hidden` }, backs, h("span", { class: "muted", text: ` ${label}: ${n} hidden` }));
}
