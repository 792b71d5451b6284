/** The dashboard's only stylesheet: inline in each page (small, and no extra request). */
export const STYLES = `
:root{--fg:#1d2330;--muted:#5b6475;--line:#e3e6ec;--bg:#f6f7f9;--card:#fff;--accent:#1f6feb;
--green:#1a7f37;--green-bg:#dafbe1;--blue:#0b5cad;--blue-bg:#ddf0ff;--amber:#8a5a00;--amber-bg:#fff1c2;
--red:#b42318;--red-bg:#ffe1de;--grey:#4b5563;--grey-bg:#eceef2;--violet:#6639ba;--violet-bg:#efe6ff}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
header.top{background:#111827;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center}
header.top .brand{font-weight:700;color:#fff}
header.top nav{display:flex;flex-wrap:wrap;gap:.2rem}
header.top nav a{color:#cbd5e1;padding:.25rem .55rem;border-radius:6px}
header.top nav a[aria-current=page]{background:#374151;color:#fff}
header.top form.search input{padding:.25rem .5rem;border-radius:6px;border:1px solid #4b5563;background:#1f2937;color:#fff}
header.top .who{margin-left:auto;display:flex;gap:.6rem;align-items:center;font-size:.85rem;color:#cbd5e1}
header.top .who code{background:#374151;color:#e5e7eb}
header.top .who button{background:none;border:1px solid #4b5563;color:#e5e7eb;padding:.2rem .6rem;font-size:.85rem}
.clockbar{background:#1f2937;color:#e5e7eb;font-size:.85rem;padding:.35rem 1rem;display:flex;flex-wrap:wrap;gap:.2rem 1.2rem}
.clockbar strong{color:#fff}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.45rem;margin:.4rem 0 1rem;overflow-wrap:anywhere}h2{font-size:1.1rem;margin:1.4rem 0 .6rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem;margin-bottom:1rem}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr))}
.stat{display:flex;justify-content:space-between;gap:.5rem;padding:.2rem 0;border-bottom:1px dashed var(--line)}
.stat:last-child{border-bottom:0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{border-bottom:1px solid var(--line);padding:.45rem .5rem;text-align:left;vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em}
code{background:#eef1f5;padding:.05rem .3rem;border-radius:4px}
td time{white-space:nowrap}td time .muted{display:block}
td pre{max-width:min(40rem,85vw)}pre.answer{max-height:8rem;margin:.2rem 0 .4rem;padding:.4rem .6rem}
pre{background:#0f172a;color:#e2e8f0;padding:.7rem;border-radius:8px;overflow:auto;max-height:22rem}
.muted{color:var(--muted);font-size:.85rem}
.badge{display:inline-block;padding:.05rem .55rem;border-radius:999px;font-size:.8rem;font-weight:600;white-space:nowrap}
.b-green{color:var(--green);background:var(--green-bg)}.b-blue{color:var(--blue);background:var(--blue-bg)}
.b-amber{color:var(--amber);background:var(--amber-bg)}.b-red{color:var(--red);background:var(--red-bg)}
.b-grey{color:var(--grey);background:var(--grey-bg)}.b-violet{color:var(--violet);background:var(--violet-bg)}
form.inline{display:inline-flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:0 .3rem .3rem 0}
label{font-size:.85rem;color:var(--muted);display:inline-flex;flex-direction:column;gap:.15rem}
input,select{font:inherit;padding:.35rem .5rem;border:1px solid #c5cad3;border-radius:6px;background:#fff;min-width:0}
button,a.button{font:inherit;padding:.35rem .8rem;border-radius:6px;border:1px solid #9aa3b2;background:#fff;cursor:pointer;color:var(--fg);display:inline-block}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
button.danger{color:var(--red);border-color:#e6a39c}
.flash{padding:.6rem .8rem;border-radius:8px;margin-bottom:1rem}
.flash.ok{background:var(--green-bg);color:var(--green)}.flash.error{background:var(--red-bg);color:var(--red)}
.empty{border:1px dashed #c5cad3;border-radius:10px;padding:1rem;background:#fbfcfd;color:var(--muted)}
.empty strong{color:var(--fg)}
.pager{display:flex;gap:1rem;margin:.6rem 0}
ol.timeline{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.4rem}
ol.timeline li{flex:1 1 9rem;border:1px solid var(--line);border-top:4px solid var(--grey-bg);border-radius:8px;padding:.45rem .55rem;background:#fff}
ol.timeline li.done{border-top-color:var(--green)}ol.timeline li.current{border-top-color:var(--accent);background:#f3f8ff}
ol.timeline li.bad{border-top-color:var(--red);background:#fff6f5}ol.timeline li.todo{opacity:.55}
ol.timeline .when{display:block;font-size:.78rem;color:var(--muted)}
ol.steps{padding-left:1.2rem}ol.steps li{margin:.25rem 0}
.signin{max-width:26rem;margin:3rem auto}.signin label{display:flex;margin-bottom:.8rem}
.signin input{width:100%}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:var(--muted);font-size:.85rem}dl.facts dd{margin:0;overflow-wrap:anywhere}
td.payload{width:100%;max-width:0}td.payload pre{max-width:none;white-space:pre-wrap;overflow-wrap:anywhere}
@media (max-width:640px){main{padding:.6rem}header.top .who{margin-left:0}header.top form.search{flex:1 1 100%}header.top form.search input{width:100%}
table.stack thead{display:none}table.stack tr{display:block;border-bottom:2px solid var(--line);padding:.3rem 0}
table.stack td{display:block;border:0;padding:.2rem .4rem;text-align:right;overflow-wrap:anywhere}
table.stack td::before{content:attr(data-label);float:left;margin-right:1rem;color:var(--muted);font-size:.8rem}
table.stack td details{text-align:left}table.stack td.payload{width:auto;max-width:none}}
`;
