/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * A plain page in the sandbox's hosted-page style: no scripts, no external assets. `marker` puts a
 * banner on top (the hosted contract and capture pages say they are not real).
 */
export function page(title: string, body: string, options: { marker?: string } = {}): string {
  const banner = options.marker
    ? `<div class="sandbox-marker" role="note">${escapeHtml(options.marker)}</div>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · credit-sandbox</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d2330;line-height:1.5}
h1{font-size:1.5rem}code{background:#f1f3f7;padding:.1rem .3rem;border-radius:4px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e3e6ec;padding:.4rem;text-align:left}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;background:#eef;font-size:.85rem}
.badge.ok{background:#dcf5e3;color:#135c2a}.badge.wait{background:#e3ecfd;color:#1f4a9c}
.badge.fail{background:#fde2e1;color:#a1150f;font-weight:600}.badge.expired{background:#fdf0d5;color:#8a5300;font-weight:600}
.sandbox-marker{background:repeating-linear-gradient(135deg,#fff3c4,#fff3c4 12px,#ffe89a 12px,#ffe89a 24px);border:2px dashed #b98900;color:#5c4300;font-weight:700;text-align:center;padding:.5rem;margin-bottom:1rem;border-radius:6px}
.clock{color:#56607a;font-size:.9rem}
[role=alert]{color:#a1150f}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #889;cursor:pointer;margin-right:.5rem}
button.primary{background:#1f6feb;color:#fff;border-color:#1f6feb}
</style></head><body>${banner}${body}</body></html>`;
}
