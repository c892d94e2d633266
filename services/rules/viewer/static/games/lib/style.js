/* A renderer's own stylesheet, linked beside the table it draws (served from static/games/, so
 * a Content-Security-Policy of style-src 'self' allows it; no inline styles). */
export function stylesheet(ctx, file) {
  return ctx.h("link", { rel: "stylesheet", href: new URL(`../${file}`, import.meta.url).href });
}
