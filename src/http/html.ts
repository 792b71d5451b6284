/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A plain page in the sandbox's hosted-page style: no scripts, no external assets. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · credit-sandbox</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d2330;line-height:1.5}
h1{font-size:1.5rem}code{background:#f1f3f7;padding:.1rem .3rem;border-radius:4px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e3e6ec;padding:.4rem;text-align:left}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;background:#eef;font-size:.85rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #889;cursor:pointer;margin-right:.5rem}
button.primary{background:#1f6feb;color:#fff;border-color:#1f6feb}
</style></head><body>${body}</body></html>`;
}
