// The monitor page: renders each state document the monitor publishes (GET api/state once, then
// server-sent events from "events", one per interval). Text goes in with textContent only: symbol
// names and reasons come from files and must never be read as HTML.
"use strict";

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#000000"];
const charts = {};
window.chronexCharts = charts; // for the browser test: what each chart was given

function el(id) { return document.getElementById(id); }
function text(id, value) { el(id).textContent = value; }
function fmt(n, digits) {
  if (n === null || n === undefined || Number.isNaN(n)) return "–";
  return n.toLocaleString("en-US", { maximumFractionDigits: digits ?? 0, minimumFractionDigits: digits ?? 0 });
}
function us(n) { return n === null || n === undefined ? "–" : n < 10 ? fmt(n, 2) : n < 1000 ? fmt(n, 1) : fmt(n, 0); }
// A log axis cannot show 0 (a hop under the histogram's resolution): leave the point out.
function positive(values) { return values.map(v => (v === null || v <= 0 ? null : v)); }
// x = 1/(1-p): 1 is 0%, 2 is 50%, 10 is 90%, 100 is 99%, 1000 is 99.9% ...
function percentileLabel(x) { return x >= 1 ? Number((100 - 100 / x).toFixed(4)) + "%" : ""; }
const PERCENTILE_TICKS = [1, 2, 10, 100, 1e3, 1e4, 1e5, 1e6];

function row(table, cells, header, classes) {
  const tr = document.createElement("tr");
  cells.forEach((c, i) => {
    const td = document.createElement(header ? "th" : "td");
    td.textContent = c;
    if (classes && classes[i]) td.className = classes[i];
    tr.appendChild(td);
  });
  table.appendChild(tr);
}
function table(id, head, rows, classes) {
  const t = el(id);
  t.replaceChildren();
  row(t, head, true);
  rows.forEach(r => row(t, r, false, typeof classes === "function" ? classes(r) : classes));
}

function chartWidth(id) { return Math.max(300, el(id).parentElement.clientWidth - 24); }

// A value with no neighbour (nulls on both sides) draws no line: uPlot hides points when a series is dense, so such a value
// (a lone 22 s spike between quiet intervals) would not show at all. These indexes get a point whatever the density.
function isolated(u, seriesIdx, show) {
  if (show) return null; // every point is drawn already
  const data = u.data[seriesIdx];
  const idxs = [];
  for (let i = 0; i < data.length; i++) {
    if (data[i] != null && (i === 0 || data[i - 1] == null) && (i === data.length - 1 || data[i + 1] == null)) idxs.push(i);
  }
  return idxs.length ? idxs : null;
}

// The legend shows the latest values while the cursor is not over the chart (uPlot's own shows "–" then).
function showLatest(u) {
  if (u.cursor.idx == null && u.data[0].length) u.setLegend({ idx: u.data[0].length - 1 });
}

// Creates the chart the first time there is data for it, then only swaps its data.
function plot(id, options, data) {
  if (charts[id]) {
    charts[id].setData(data);
    showLatest(charts[id]);
    return;
  }
  options.series.slice(1).forEach(s => { s.points = Object.assign({ filter: isolated, size: 6 }, s.points); });
  const hooks = { setCursor: [showLatest], ready: [showLatest] };
  charts[id] = new uPlot(Object.assign({ width: chartWidth(id), height: 240, legend: { live: true }, hooks: hooks }, options), data,
    el(id));
}

function renderTiles(s) {
  text("dataDir", s.dataDir);
  text("updated", "updated " + new Date(s.time).toISOString().replace("T", " ").replace("Z", " UTC") + ", every " + fmt(s.intervalSeconds, 1) + " s");
  const alerts = el("alerts");
  alerts.className = "alerts " + (s.alerts.length ? "bad" : "ok");
  alerts.textContent = s.alerts.length ? "alerts: " + s.alerts.join("; ") : "alerts: none";
  const engine = el("engine");
  engine.textContent = s.engine.state === "ALIVE" ? "alive" : s.engine.state === "GONE" ? "GONE" : "not running";
  engine.className = "big state-" + s.engine.state;
  text("engineDetail", s.engine.progress + (s.engine.pid ? " · pid " + s.engine.pid : ""));
  text("flowIn", fmt(s.flow.commandsPerSecond) + " /s");
  text("flowInTotal", fmt(s.flow.commands) + " commands in all");
  text("flowOut", fmt(s.flow.eventsPerSecond) + " /s");
  text("flowOutTotal", fmt(s.flow.events) + " events in all");
  text("backlog", fmt(s.backlog.commands) + " waiting");
  text("backlogAge", "oldest " + (s.backlog.ageMs === null ? "? (no timestamp)" : fmt(s.backlog.ageMs, 3) + " ms")
    + " · alert over " + fmt(s.backlog.alertAgeMs) + " ms");
  text("accepted", fmt(s.results.accepted) + " accepted");
  text("rejected", fmt(s.results.rejected) + " rejected");
  const total = s.latency.interval.total;
  text("totalP99", total.n ? "p99 " + us(total.p99) + " µs" : "no results");
  text("totalP50", total.n ? "p50 " + us(total.p50) + " µs · max " + us(total.max) + " µs · n " + fmt(total.n) : "in the last interval");
  renderPublisher(s.marketData);
}

// The market-data publisher (DIR/marketdata/status): hidden when none ever ran on this data directory.
function renderPublisher(md) {
  el("mdTile").hidden = !md;
  if (!md) return;
  const publisher = el("mdPublisher");
  publisher.className = "big state-" + md.state;
  if (md.state === "UNREADABLE") {
    publisher.textContent = "?";
    text("mdDetail", md.status);
    return;
  }
  publisher.textContent = md.state === "ALIVE" ? (md.incrementalsPerSecond === null ? "? /s" : fmt(md.incrementalsPerSecond) + " /s")
    : md.state === "NOT_RUNNING" ? "not running" : md.state;
  text("mdDetail", "lag " + fmt(md.lagEvents) + " events, " + fmt(md.lagMicros) + " µs · " + fmt(md.incrementals) + " incrementals, "
    + fmt(md.snapshots) + " snapshots · back-pressure " + fmt(md.backPressured) + ", given up " + fmt(md.givenUp)
    + " · last published " + (md.lastEventsIndexPublished || "none") + " · " + md.status);
}

function renderCharts(s) {
  const hops = s.latency.hops;
  const d = s.latency.distribution;
  if (hops.some(h => d[h].some(v => v !== null && v > 0))) {
    plot("percentileChart", {
      scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
      axes: [{ splits: () => PERCENTILE_TICKS, values: (u, splits) => splits.map(percentileLabel) }, { label: "µs", size: 60 }],
      series: [{ label: "percentile", value: (u, v) => (v === null ? "–" : percentileLabel(v)) }]
        .concat(hops.map((h, i) => ({ label: h, stroke: COLORS[i], width: 2, value: (u, v) => us(v) }))),
    }, [d.percentile.map(p => 1 / (1 - p / 100))].concat(hops.map(h => positive(d[h]))));
  }
  const hist = s.history;
  if (hist.time.length < 2) return; // a line needs two points
  plot("p99Chart", {
    scales: { y: { distr: 3 } },
    axes: [{}, { label: "µs", size: 60 }],
    series: [{}].concat(hops.map((h, i) => ({ label: h, stroke: COLORS[i], width: 2, value: (u, v) => us(v) }))),
  }, [hist.time].concat(hops.map(h => positive(hist.p99[h]))));
  const select = el("hopSelect");
  if (!select.options.length) {
    hops.forEach(h => select.add(new Option(h, h, h === "total", h === "total")));
    select.addEventListener("change", () => { if (window.lastState) renderCharts(window.lastState); });
  }
  const hop = select.value;
  plot("hopChart", {
    scales: { y: { distr: 3 } },
    axes: [{}, { label: "µs", size: 60 }],
    series: [{}, { label: "p50", stroke: COLORS[0], width: 2, value: (u, v) => us(v) },
      { label: "p99", stroke: COLORS[1], width: 2, value: (u, v) => us(v) },
      { label: "max", stroke: COLORS[3], width: 1, dash: [4, 4], value: (u, v) => us(v) }],
  }, [hist.time, positive(hist.p50[hop]), positive(hist.p99[hop]), positive(hist.max[hop])]);
  plot("flowChart", {
    scales: { backlog: {} },
    axes: [{}, { label: "per second", size: 60 }, { scale: "backlog", side: 1, label: "backlog", grid: { show: false }, size: 60 }],
    series: [{}, { label: "commands in/s", stroke: COLORS[0], width: 2, value: (u, v) => fmt(v) },
      // Dashed: under steady load events out equal commands in (one result per command) and a solid line would hide it.
      { label: "events out/s", stroke: COLORS[2], width: 2, dash: [6, 6], value: (u, v) => fmt(v) },
      { label: "backlog", stroke: COLORS[1], width: 1, scale: "backlog", value: (u, v) => fmt(v) }],
  }, [hist.time, hist.commandsPerSecond, hist.eventsPerSecond, hist.backlog]);
}

function renderTables(s) {
  const hops = s.latency.hops;
  table("latencyTable", ["hop", "n", "p50", "p99", "p99.9", "max", "last " + s.latency.window + ": p50", "p99", "max",
    "since start: p50", "p99", "max"],
    hops.map(h => {
      const i = s.latency.interval[h], m = s.latency.lastMinute[h], a = s.latency.sinceStart[h];
      const v = (hist, x) => (hist.n ? us(x) : "–"); // nothing recorded is not 0 µs
      return [h, fmt(i.n), v(i, i.p50), v(i, i.p99), v(i, i.p999), v(i, i.max), v(m, m.p50), v(m, m.p99), v(m, m.max),
        v(a, a.p50), v(a, a.p99), v(a, a.max)];
    }));
  const processes = [["engine", s.engine.status, s.engine.progress, "", ""]].concat(s.gateways.map(g =>
    ["gateway " + g.id, g.status, fmt(g.commands) + " commands (" + fmt(g.commandsInInterval) + " in the interval)",
      (g.sessions.problem ? "? (" + g.sessions.problem + ")" : g.sessions.loggedOn + " of " + g.sessions.configured + " logged on")
        + (g.marketData ? ", " + g.marketData : ""),
      g.failedEvents ? g.lastFailure : "none"]));
  if (s.storage) {
    processes.push(["storage", s.storage.usableBytes < s.storage.reserveBytes ? "LOW" : "ok", s.storage.status, "", ""]);
  }
  table("processTable", ["process", "status", "work", "sessions", "failed events"], processes);
  renderCluster(s.cluster);
  renderMoney(s.money);
  const sessions = [];
  // Market data: live subscriptions (STALE while the client catches up), slow-subscriber episodes, W and X sent.
  const md = m => (m.subscriptions || m.snapshots || m.staleEpisodes ? fmt(m.subscriptions) + (m.stale ? " STALE" : "") + " · "
    + fmt(m.staleEpisodes) + " slow · W " + fmt(m.snapshots) + " · X " + fmt(m.incrementals) : "–");
  s.gateways.forEach(g => (g.sessions.list || []).filter(x => x.loggedOn).forEach(x => sessions.push(["gateway " + g.id, x.name,
    fmt(x.messagesIn), fmt(x.messagesOut), String(x.lastInboundSeqNum), String(x.lastOutboundSeqNum),
    x.lastLogonEpochMillis ? new Date(x.lastLogonEpochMillis).toISOString().replace("T", " ").replace("Z", " UTC") : "–",
    md(x.marketData)])));
  table("sessionTable", ["gateway", "session", "messages in", "out", "last MsgSeqNum in", "out", "logged on at", "market data"],
    sessions.length ? sessions : [["none logged on", "", "", "", "", "", "", ""]]);
  const when = ms => new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  table("alertTable", ["alert", "raised", "cleared", "lasted", "last said"],
    s.alertHistory.length ? s.alertHistory.map(a => [a.kind, when(a.raised), a.cleared === null ? "still raised" : when(a.cleared),
      fmt(a.lastedMs / 1000, 1) + " s", a.text]) : [["none so far", "", "", "", ""]],
    r => [r[2] === "still raised" ? "state-GONE" : "", "", "", "", ""]);
  table("operatorTable", ["journal index", "command", "about", "engine's answer"],
    s.operator.last.length ? s.operator.last.map(o => [o.journalIndex, o.type, o.subject, o.answer]) : [["none", "", "", ""]]);
  const rejects = Object.entries(s.results.rejects).sort((a, b) => b[1] - a[1]);
  table("rejectTable", ["reason", "count"], rejects.length ? rejects.map(([r, n]) => [r, fmt(n)]) : [["none", "0"]]);
  table("tradeTable", ["symbol", "trades", "volume (lots)", "notional", "last trade"],
    s.trades.length ? s.trades.map(t => [t.symbol, fmt(t.trades), fmt(t.volume), t.notional,
      t.lastTrades.length ? t.lastTrades[0].quantity + "@" + t.lastTrades[0].price : "–"]) : [["none yet", "", "", "", ""]]);
}

// With bin/monitor --cluster: one row per member, as bin/cluster-status prints them; hidden on a single host.
function renderCluster(c) {
  el("clusterBox").hidden = !c;
  if (!c) return;
  text("clusterSummary", "(" + c.summary + ")");
  const num = n => (n < 0 ? "–" : fmt(n)); // -1: not known (a member down, a counter missing)
  table("clusterTable", ["member", "host", "status", "role", "consensus module", "election", "term", "commit position",
    "lag behind leader", "elections", "snapshots"],
    c.members.map(m => [String(m.id), m.host, m.status, m.role, m.moduleState, m.electionState, num(m.term),
      num(m.commitPosition), num(m.lag), num(m.elections), num(m.snapshots)]),
    r => ["", "", r[2] === "up" ? "state-ALIVE" : "state-GONE"]);
  el("clusterSummary").className = c.leader < 0 ? "state-GONE" : "muted";
}

// An exact decimal string with its integer digits grouped ("-1234567.50" -> "-1,234,567.50"): no float in between.
function grouped(amount) {
  const [whole, fraction] = amount.split(".");
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (fraction === undefined ? "" : "." + fraction);
}

// The engine's ledger (DIR/ledger), per asset in its own decimals; hidden when the engine keeps no money.
function renderMoney(m) {
  el("moneyBox").hidden = !m;
  if (!m) return;
  text("moneyStatus", "(" + m.status + ")");
  el("moneyStatus").className = m.readable ? "muted" : "state-GONE";
  table("moneyTable", ["asset", "deposited", "withdrawn", "adjusted", "held by open orders", "fees collected", "available"],
    m.readable ? m.assets.map(a => [a.code].concat([a.deposited, a.withdrawn, a.adjusted, a.held, a.fees, a.available].map(grouped)))
      : [["?", "", "", "", "", "", ""]]);
}

function renderBooks(s) {
  text("snapshotCheck", "Books " + s.snapshotCheck.text);
  el("snapshotCheck").className = s.snapshotCheck.equal ? "small" : "small state-GONE";
  const books = el("books");
  books.replaceChildren();
  if (!s.books.length) {
    books.textContent = "no price level seen yet";
    return;
  }
  s.books.forEach(b => {
    const div = document.createElement("div");
    div.className = "book";
    const h = document.createElement("h2");
    h.textContent = b.symbol + " · " + b.bidLevels + " bid levels, " + b.askLevels + " ask levels";
    div.appendChild(h);
    const t = document.createElement("table");
    row(t, ["orders", "bid qty", "bid", "ask", "ask qty", "orders"], true);
    for (let i = 0; i < Math.max(b.bids.length, b.asks.length); i++) {
      const bid = b.bids[i], ask = b.asks[i];
      row(t, [bid ? bid.orders : "", bid ? fmt(bid.quantity) : "", bid ? bid.price : "", ask ? ask.price : "",
        ask ? fmt(ask.quantity) : "", ask ? ask.orders : ""], false, ["", "bid", "bid", "ask", "ask", ""]);
    }
    div.appendChild(t);
    books.appendChild(div);
  });
}

function render(s) {
  if (!s || !s.latency) return; // the monitor has not finished its first interval yet
  window.lastState = s;
  renderTiles(s);
  renderCharts(s);
  renderTables(s);
  renderBooks(s);
  // Only a state drawn whole counts as fresh.
  lastStateAt = performance.now();
  lastStateTime = s.time;
  lastIntervalMs = s.intervalSeconds > 0 ? s.intervalSeconds * 1000 : 1000;
  showConnection();
}

// The live stream, read with fetch rather than EventSource: an EventSource that gets an HTTP error (a 503 when every stream
// slot is taken, say after a monitor restart) gives up for good, and cannot see Retry-After. This one retries whatever went
// wrong, backing off 1 s, 2 s, 4 s ... 10 s, and never sooner than the server's Retry-After.
const RETRY_FIRST_MS = 1000, RETRY_MAX_MS = 10000;
let retryMs = RETRY_FIRST_MS;
let connectionProblem = "connecting";

// Nothing at all (not even the monitor's keep-alive comment, every 15 s) for this long: the connection is dead without
// having said so (a NAT or VPN dropped it, a half-open socket), and the stream is abandoned and asked for again.
const SILENT_MS = 35000;

async function stream() {
  const abort = new AbortController();
  let watchdog = setTimeout(() => abort.abort(), SILENT_MS);
  let reader = null;
  try {
    const response = await fetch("events", { cache: "no-store", signal: abort.signal });
    if (!response.ok) {
      const after = Number(response.headers.get("Retry-After"));
      throw { why: "HTTP " + response.status, retryAfterMs: after > 0 ? after * 1000 : 0 };
    }
    reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw { why: "the monitor ended the stream" };
      clearTimeout(watchdog);
      watchdog = setTimeout(() => abort.abort(), SILENT_MS);
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const data = buffer.slice(0, end).split("\n").filter(l => l.startsWith("data: ")).map(l => l.slice(6)).join("\n");
        buffer = buffer.slice(end + 2);
        if (data) {
          retryMs = RETRY_FIRST_MS;
          connectionProblem = null;
          // A state the page cannot draw is the page's error, not the connection's: said on the console, the stream kept
          // (the staleness check turns the page stale if no state can be drawn for long).
          try {
            render(JSON.parse(data));
          } catch (e) {
            console.error("cannot show the monitor's state", e);
          }
        }
      }
    }
  } catch (e) {
    const wait = Math.max(retryMs, (e && e.retryAfterMs) || 0);
    const why = abort.signal.aborted ? "no word from the monitor for " + SILENT_MS / 1000 + " s" : (e && e.why) || "the monitor cannot be reached";
    connectionProblem = why + "; retrying in " + Math.round(wait / 1000) + " s";
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    showConnection();
    setTimeout(stream, wait);
  } finally {
    clearTimeout(watchdog);
    if (reader) reader.cancel().catch(() => {}); // the old stream's slot and thread go back to the monitor at once
  }
}

// Figures older than a few intervals are never shown as live: the badge, the alerts and the engine tile say they are not
// known any more, and the page is greyed, until a state arrives again. Judged by this browser's own clock (time since the
// last state arrived), so a monitor whose clock differs cannot make old figures look new.
const STALE_INTERVALS = 3, STALE_MIN_MS = 2000;
let lastStateAt = 0, lastIntervalMs = 1000, lastStateTime = 0;

function staleForMs() {
  if (!lastStateAt) return 0;
  const age = performance.now() - lastStateAt;
  return age > Math.max(STALE_MIN_MS, STALE_INTERVALS * lastIntervalMs) ? age : 0;
}

function showConnection() {
  const badge = el("connection");
  const stale = staleForMs();
  document.body.classList.toggle("stale", stale > 0);
  if (stale) {
    badge.textContent = "STALE: no update for " + Math.round(stale / 1000) + " s" + (connectionProblem ? " (" + connectionProblem + ")" : "");
    badge.className = "badge down";
    const alerts = el("alerts");
    alerts.className = "alerts unknown";
    alerts.textContent = "alerts: unknown: no update from the monitor for " + Math.round(stale / 1000) + " s; the figures below are"
      + " from " + new Date(lastStateTime).toISOString().replace("T", " ").replace("Z", " UTC");
    el("engine").textContent = "?";
    el("engine").className = "big state-UNKNOWN";
  } else if (connectionProblem === "connecting") {
    badge.textContent = "connecting";
    badge.className = "badge";
  } else if (connectionProblem) {
    badge.textContent = "disconnected: " + connectionProblem;
    badge.className = "badge down";
  } else {
    badge.textContent = "live";
    badge.className = "badge live";
  }
}

function connect() {
  stream();
  setInterval(showConnection, 1000);
}

window.addEventListener("resize", () => Object.entries(charts).forEach(([id, c]) => c.setSize({ width: chartWidth(id), height: 240 })));
// The first state at once (the stream sends one too, so a failed fetch here only means waiting for it).
fetch("api/state").then(r => r.json()).then(render).catch(() => {}).finally(connect);
