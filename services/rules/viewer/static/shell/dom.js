/* A tiny DOM helper: h(tag, attrs, ...children). Text goes in as text nodes only (never innerHTML:
 * the page's CSP forbids inline script). "svg:<tag>" makes an SVG element. Attributes: "class",
 * "text" (textContent), on<event> (a listener), anything else set as an attribute; null, undefined
 * and false values and children are skipped; arrays of children are flattened. */
const SVG_NS = "http://www.w3.org/2000/svg";

export function h(tag, attrs, ...children) {
  const svg = tag.startsWith("svg:");
  const node = svg ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "text") node.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  append(node, children);
  return node;
}

/** Append children (nodes, strings, numbers, nested arrays), skipping null/undefined/false. */
export function append(node, children) {
  for (const c of [children].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Replace a node's children (null/undefined skipped, never printed as "null"). */
export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}
