package io.chronex.monitor.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.chronex.bench.loadgen.LoadGenMain;
import io.chronex.engine.process.EngineMain;
import io.chronex.gateway.GatewayMain;
import io.chronex.monitor.Monitor;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.replay.Admin;
import io.chronex.testing.Await;
import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor's page in a real browser against a live exchange: an engine, a FIX gateway and the
 * load generator as child processes, {@code bin/monitor --http} as another, headless Chromium on its
 * page. Checks what a person would see: the figures there and changing, the four charts drawn with
 * the hops' lines, both books, the load generator's sessions, a halt issued with bin/admin and the
 * engine's answer to it, the money table from the engine's ledger (the funding script's deposits, holds, fees),
 * then the engine killed shown as GONE with an alert and the backlog's age growing while the load goes on; a
 * market-data publisher's status file in the feed tile; and no error on
 * the console throughout. Saves a screenshot as target/monitor-page.png.
 */
class MonitorPageTest {
    @TempDir
    Path tmp;
    private final ChildJvm jvms = new ChildJvm();

    @AfterEach
    void stop() {
        jvms.close();
    }

    @Test
    void thePageShowsTheLiveExchange() throws Exception {
        final Path data = tmp.resolve("data");
        final Path engineLog = tmp.resolve("engine.out");
        // FUNDS is on in the shipped configuration: the load generator's accounts are funded first (answered first).
        Admin.journal(DataDirectory.open(data), ProjectRoot.resolve("config/demo-funding.admin"),
            ProjectRoot.resolve("config/engine.yaml"));
        final Process engine = jvms.start(EngineMain.class.getName(), List.of("--data-dir", data.toString(), "--config",
            ProjectRoot.resolve("config/engine.yaml").toString(), "--idle", "backoff"), engineLog);
        ChildJvm.awaitLine(engine, engineLog, "engine started");
        final Path gatewayLog = tmp.resolve("gateway.out");
        final Process gateway = jvms.start(GatewayMain.class.getName(), List.of("--data-dir", data.toString(), "--config",
            ProjectRoot.resolve("config/gateway.yaml").toString(), "--port", "0", "--idle", "backoff"), gatewayLog);
        final Matcher port = Pattern.compile("listening on [^:]*:(\\d+) ").matcher(ChildJvm.awaitLine(gateway, gatewayLog, "listening on"));
        assertTrue(port.find());
        // Load for longer than the test needs: it is stopped with the others at the end.
        jvms.start(LoadGenMain.class.getName(), List.of("--port", port.group(1), "--sessions", "2", "--rate", "300", "--duration", "300",
            "--symbols", "ACME=100.00,GLOBEX=25.00", "--warmup", "0", "--quiet"), tmp.resolve("loadgen.out"));
        // A market-data publisher's status file as one that stopped cleanly left it (its pid gone, no pid file): the page's
        // feed tile shows it from the monitor's reading of the file.
        final ByteBuffer status = ByteBuffer.allocate(MarketDataStatusFile.LENGTH).order(ByteOrder.nativeOrder());
        status.putLong(MarketDataStatusFile.MAGIC_AT, MarketDataStatusFile.MAGIC).putLong(MarketDataStatusFile.VERSION_AT, 1)
            .putLong(MarketDataStatusFile.PID_AT, 1L << 40)
            .putLong(MarketDataStatusFile.HEARTBEAT_EPOCH_MILLIS_AT, System.currentTimeMillis())
            .putLong(MarketDataStatusFile.MESSAGES_AT, 1234).putLong(MarketDataStatusFile.LAG_EVENTS_AT, 3)
            .putLong(MarketDataStatusFile.LAG_MICROS_AT, 85).putLong(MarketDataStatusFile.LAST_SENT_INDEX_AT, -1);
        Files.createDirectories(data.resolve("marketdata"));
        Files.write(data.resolve("marketdata/status"), status.array());
        final Path monitorLog = tmp.resolve("monitor.out");
        final Process monitor = jvms.start(Monitor.class.getName(), List.of("--data-dir", data.toString(), "--config",
            ProjectRoot.resolve("config/engine.yaml").toString(), "--http", "127.0.0.1:0", "--interval", "500ms"), monitorLog);
        final Matcher url = Pattern.compile("serving (http://\\S+/) ").matcher(ChildJvm.awaitLine(monitor, monitorLog, "serving http://"));
        assertTrue(url.find());

        try (Chromium browser = new Chromium(Chromium.binary(tmp.resolve("apt.log")), tmp.resolve("profile"), 1400, 1500)) {
            browser.navigate(url.group(1));
            Await.until("the page live with commands read", 60, () -> "live".equals(text(browser, "connection"))
                && browser.evaluate("window.lastState ? window.lastState.flow.commands : 0").asLong() > 0);
            assertEquals(List.of(), browser.errors(), "console errors");

            // Figures change while the load runs: the commands-in total the page shows grows.
            final String before = text(browser, "flowInTotal");
            Await.until("the commands total on the page to change from '" + before + "'", 30,
                () -> !before.equals(text(browser, "flowInTotal")));
            assertTrue(text(browser, "flowInTotal").matches("[0-9,]+ commands in all"), text(browser, "flowInTotal"));
            assertEquals("alive", text(browser, "engine"));
            assertEquals("not running", text(browser, "mdPublisher"));
            assertTrue(text(browser, "mdDetail").startsWith("lag 3 events, 85 µs · 1,234 incrementals, 0 snapshots"),
                text(browser, "mdDetail"));
            assertTrue(browser.evaluate("!document.getElementById('mdTile').hidden").asBoolean(), "the feed tile shown");
            Await.until("a non-zero p50 of the journal hop in the latency table", 30,
                () -> browser.evaluate("[...document.querySelectorAll('#latencyTable tr')].some(r => r.cells[0].textContent === 'journal'"
                    + " && parseFloat(r.cells[7].textContent.replace(/,/g, '')) > 0)").asBoolean());
            Await.until("both books on the page", 30, () -> text(browser, "books").contains("ACME")
                && text(browser, "books").contains("GLOBEX"));

            // The charts: each exists with data in every series, and its canvas shows the first line's colour, not covered
            // by the lines drawn after it.
            Await.until("four charts drawn with data", 30, () -> browser.evaluate(CHARTS_DRAWN).asBoolean());
            final JsonNode pixels = browser.evaluate(LINE_PIXELS);
            for (final String chart : List.of("percentileChart", "p99Chart", "hopChart", "flowChart")) {
                assertTrue(pixels.path(chart).path(0).asInt() > 20,
                    "pixels of the first line's colour in " + chart + " (per series: " + pixels.path(chart) + "): " + pixels);
            }
            // Money, from the engine's ledger: every asset with what the funding script deposited, open orders holding some,
            // takers' fees collected in USD, nothing negative. (Available is the monitor's own difference, so it cannot
            // disagree with the rest; the engine's held total is checked against its accounts in ConservationPropertyTest.)
            Await.until("the money table with USD fees collected", 30, () -> !browser.evaluate(MONEY_ROWS).path("USD").isMissingNode()
                && new BigDecimal(browser.evaluate(MONEY_ROWS).path("USD").path(5).asText().replace(",", "")).signum() > 0);
            final JsonNode money = browser.evaluate(MONEY_ROWS);
            final Map<String, BigDecimal> deposits = depositsIn(ProjectRoot.resolve("config/demo-funding.admin"));
            assertEquals(deposits.keySet(), fieldNames(money), "one row per asset: " + money);
            for (final Map.Entry<String, BigDecimal> asset : deposits.entrySet()) {
                final JsonNode cells = money.path(asset.getKey());
                final BigDecimal[] v = new BigDecimal[6];
                for (int i = 0; i < 6; i++) {
                    v[i] = new BigDecimal(cells.path(i + 1).asText().replace(",", ""));
                }
                assertEquals(0, asset.getValue().compareTo(v[0]), asset.getKey() + " deposited: " + cells);
                assertTrue(v[3].signum() >= 0 && v[5].signum() >= 0, asset.getKey() + ": " + cells);
            }
            assertTrue(new BigDecimal(money.path("USD").path(4).asText().replace(",", "")).signum() > 0, "bids hold USD: " + money);
            assertEquals("12,000,000,000.00", money.path("USD").path(1).asText(), "digits grouped, decimals exact");
            assertTrue(text(browser, "moneyStatus").contains("the engine's ledger after journal index"), text(browser, "moneyStatus"));

            // Sessions as the gateway publishes them, and an operator's halt as the journal and the engine's answer show it.
            Await.until("the load generator's sessions in the sessions table", 30, () -> text(browser, "sessionTable").contains("LOAD1->")
                && text(browser, "sessionTable").contains("LOAD2->"));
            final Path adminLog = tmp.resolve("admin.out");
            final Process admin = jvms.start(Admin.class.getName(), List.of("--data-dir", data.toString(), "--config",
                ProjectRoot.resolve("config/engine.yaml").toString(), "halt", "ACME"), adminLog);
            assertTrue(admin.waitFor(60, TimeUnit.SECONDS), "bin/admin ended");
            assertEquals(0, admin.exitValue(), Files.readString(adminLog));
            Await.until("the halt and its answer in the operator table", 30,
                () -> text(browser, "operatorTable").contains("HALTACMEaccepted"));
            browser.screenshot(ProjectRoot.resolve("monitor/target/monitor-page.png"));
            legendsAndTablesAndLonePoints(browser);

            // The engine killed: the page says so within a few intervals, with an alert.
            engine.destroyForcibly().waitFor();
            Await.until("the engine shown as GONE with an alert", 30, () -> "GONE".equals(text(browser, "engine"))
                && text(browser, "alerts").contains("ENGINE GONE"));
            Await.until("the alert in the alert history, still raised", 30, () -> browser.evaluate(
                "[...document.querySelectorAll('#alertTable tr')].some(r => r.cells[0].textContent === 'ENGINE GONE'"
                    + " && r.cells[2].textContent === 'still raised')").asBoolean());
            // The load goes on into the journal: commands wait, and the oldest one's age grows from one state to the next.
            Await.until("commands waiting on the page", 30, () -> browser.evaluate("window.lastState.backlog.commands").asLong() > 0);
            final double age = browser.evaluate("window.lastState.backlog.ageMs").asDouble();
            Await.until("the backlog age to grow past " + age + " ms", 30,
                () -> browser.evaluate("window.lastState.backlog.ageMs").asDouble() > age);
            assertTrue(text(browser, "backlog").matches("[0-9,]+ waiting"), text(browser, "backlog"));
            browser.screenshot(ProjectRoot.resolve("monitor/target/monitor-page-engine-gone.png"));
            assertEquals(List.of(), browser.errors(), "console errors");

            restartedMonitorWithItsStreamsTaken(browser, monitor, Integer.parseInt(url.group(1).replaceAll(".*:(\\d+)/$", "$1")), data);
        }
    }

    /**
     * The monitor killed while the page is open: within a few intervals the page says its figures are stale (badge, alerts
     * unknown, engine "?"), not "live" with the last alerts. A new monitor on the same port whose stream slots are all taken
     * answers the page 503 with Retry-After: the page stays stale and says why, and retries; once slots are free it is live
     * again. (The test takes the slots the moment the new monitor listens; should the page's retry get there first, the 503
     * part is skipped and said so.) The new monitor's catch-up of the journal is history: no spike in the throughput chart,
     * nothing in the last minute.
     */
    private void restartedMonitorWithItsStreamsTaken(final Chromium browser, final Process monitor, final int port, final Path data)
        throws Exception {
        monitor.destroyForcibly().waitFor();
        Await.until("the page to say its figures are stale", 30, () -> text(browser, "connection").startsWith("STALE: no update for")
            && text(browser, "alerts").startsWith("alerts: unknown: no update from the monitor") && "?".equals(text(browser, "engine")));
        browser.screenshot(ProjectRoot.resolve("monitor/target/monitor-page-stale.png"));
        final Path log = tmp.resolve("monitor-2.out");
        jvms.start(Monitor.class.getName(), List.of("--data-dir", data.toString(), "--config",
            ProjectRoot.resolve("config/engine.yaml").toString(), "--http", "127.0.0.1:" + port, "--interval", "500ms"), log);
        final List<java.net.HttpURLConnection> taken = new java.util.ArrayList<>();
        try {
            boolean allTaken = true;
            for (int i = 0; i < 32 && allTaken; i++) {
                final java.net.HttpURLConnection stream = openStream(port);
                if (stream.getResponseCode() == 503) {
                    allTaken = false;
                    System.out.println("the page reconnected before the test took every stream slot: the 503 case is skipped");
                } else {
                    stream.getInputStream().read(); // the first state: the slot is held
                    taken.add(stream);
                }
            }
            if (allTaken) {
                final java.net.HttpURLConnection refused = openStream(port);
                assertEquals(503, refused.getResponseCode(), "every slot taken");
                assertEquals("3", refused.getHeaderField("Retry-After"));
                refused.disconnect();
                Await.until("the page to say the monitor refused its stream", 60, () -> text(browser, "connection").contains("HTTP 503"));
                assertTrue(text(browser, "connection").startsWith("STALE"), text(browser, "connection"));
            }
        } finally {
            taken.forEach(java.net.HttpURLConnection::disconnect);
        }
        Await.until("the page live again once it gets a stream", 90, () -> "live".equals(text(browser, "connection"))
            && !text(browser, "alerts").startsWith("alerts: unknown"));
        // The new monitor read the whole journal as it started: that is history, not a spike of current traffic. The load
        // goes on at a few hundred commands a second; the engine is dead, so no result came since the restart.
        Await.until("two intervals of the new monitor on the page", 30,
            () -> browser.evaluate("window.lastState.history.commandsPerSecond.length").asInt() >= 2);
        final long caughtUp = browser.evaluate("window.lastState.flow.commands").asLong();
        final double peak = browser.evaluate("Math.max(...window.lastState.history.commandsPerSecond)").asDouble();
        assertTrue(caughtUp >= 3_000, "the journal the new monitor caught up with: " + caughtUp + " commands");
        assertTrue(peak < 2_000, "the throughput chart's peak after the restart: " + peak + "/s (the catch-up read " + caughtUp
            + " commands)");
        assertEquals(0, browser.evaluate("window.lastState.latency.lastMinute.total.n").asLong(),
            "the last minute holds no result: none came since the restart");
        // The browser logs each failed request of the stream (refused while no monitor ran, cut off by the kill, the 503):
        // those are the scenario. Anything else is an error of the page.
        assertEquals(List.of(), browser.errors().stream().filter(e -> !(e.startsWith("log: Failed to load resource")
            && e.endsWith("/events"))).toList(), "console errors");
    }

    /**
     * The charts' legends show the latest values without a cursor over them; a value between two gaps gets a point; and the
     * tables (all but the latency table, whose numbers scroll) fit their boxes at 1,400 px and at 800 px.
     */
    private static void legendsAndTablesAndLonePoints(final Chromium browser) throws Exception {
        Await.until("the throughput legend showing the latest values", 30, () -> browser.evaluate(
            "[...document.querySelectorAll('#flowChart .u-legend .u-value')].slice(1).every(v => v.textContent !== '–'"
                + " && v.textContent !== '')").asBoolean());
        assertEquals("[1,3]", browser.evaluate("JSON.stringify(isolated({ data: [[1, 2, 3, 4, 5], [null, 7, null, 8, null]] }, 1,"
            + " false))").asText().replace(" ", ""), "a point for each value between gaps");
        assertEquals("[0,4]", browser.evaluate("JSON.stringify(isolated({ data: [[1, 2, 3, 4, 5], [6, null, null, null, 9]] }, 1,"
            + " false))").asText().replace(" ", ""), "and at the ends");
        for (final int width : new int[] {1400, 800}) {
            browser.call("Emulation.setDeviceMetricsOverride", java.util.Map.of("width", width, "height", 1500, "deviceScaleFactor", 1,
                "mobile", false));
            Await.until("a layout at " + width + " px", 10, () -> browser.evaluate("window.innerWidth").asInt() == width);
            final JsonNode overflowing = browser.evaluate("JSON.stringify([...document.querySelectorAll('.tables > div')]"
                + ".filter(d => !d.hidden && !d.querySelector('#latencyTable') && d.scrollWidth > d.clientWidth + 1)"
                + ".map(d => d.querySelector('h2').textContent + ': ' + d.scrollWidth + ' > ' + d.clientWidth))");
            assertEquals("[]", overflowing.asText(), "tables cut off at " + width + " px");
            browser.screenshot(ProjectRoot.resolve("monitor/target/monitor-page-" + width + ".png"));
        }
        browser.call("Emulation.clearDeviceMetricsOverride", java.util.Map.of());
    }

    /** A live-update stream of the monitor on this port, waiting until it listens (a restarted monitor reads the journal first). */
    private static java.net.HttpURLConnection openStream(final int port) throws Exception {
        final java.net.URL events = new java.net.URL("http://127.0.0.1:" + port + "/events");
        final java.net.HttpURLConnection[] opened = new java.net.HttpURLConnection[1];
        Await.until("the monitor on port " + port + " listening", 120, () -> {
            try {
                final java.net.HttpURLConnection c = (java.net.HttpURLConnection) events.openConnection();
                c.setReadTimeout(15_000);
                c.getResponseCode();
                opened[0] = c;
                return true;
            } catch (final java.net.ConnectException e) {
                return false; // not listening yet
            }
        });
        return opened[0];
    }


    /** Every chart created, and every one of its series (after x) holding at least one value. */
    private static final String CHARTS_DRAWN = "(() => { const c = window.chronexCharts || {};"
        + " return ['percentileChart', 'p99Chart', 'hopChart', 'flowChart'].every(id => c[id]"
        + " && c[id].data.slice(1).every(s => s.some(v => v !== null))); })()";

    /**
     * Per chart and series (after x), how many canvas pixels are of that series' stroke colour (within a small tolerance).
     * Lines drawn later cover earlier ones where they coincide: the page must keep the first visible (flowChart's events
     * out/s equals commands in/s under steady load and is dashed for that reason).
     */
    private static final String LINE_PIXELS = "(() => { const out = {};"
        + " for (const [id, chart] of Object.entries(window.chronexCharts)) {"
        + "   const canvas = chart.root.querySelector('canvas'); const px = canvas.getContext('2d')"
        + "     .getImageData(0, 0, canvas.width, canvas.height).data;"
        + "   out[id] = chart.series.slice(1).map(s => { const hex = s.stroke();"
        + "     const want = [1, 3, 5].map(i => parseInt(hex.substr(i, 2), 16)); let n = 0;"
        + "     for (let i = 0; i < px.length; i += 4) { if (px[i + 3] > 200 && Math.abs(px[i] - want[0]) < 24"
        + "       && Math.abs(px[i + 1] - want[1]) < 24 && Math.abs(px[i + 2] - want[2]) < 24) n++; }"
        + "     return n; }); } return out; })()";

    /** The money table's rows by asset code: the cells as shown, the code first. */
    private static final String MONEY_ROWS = "(() => { const out = {};"
        + " [...document.querySelectorAll('#moneyTable tr')].slice(1).forEach(r => { const c = [...r.cells].map(x => x.textContent);"
        + " out[c[0]] = c; }); return out; })()";

    /** Per asset code, the sum of a funding script's deposits. */
    private static Map<String, BigDecimal> depositsIn(final Path script) throws Exception {
        final Map<String, BigDecimal> sums = new TreeMap<>();
        for (final String line : Files.readAllLines(script)) {
            final String[] words = line.trim().split("\\s+");
            if (words[0].equals("deposit")) {
                sums.merge(words[2], new BigDecimal(words[3]), BigDecimal::add);
            }
        }
        return sums;
    }

    private static Set<String> fieldNames(final JsonNode node) {
        final Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String text(final Chromium browser, final String id) throws Exception {
        // "" while the page is still loading (navigation answers before the document exists).
        return browser.evaluate("(document.getElementById('" + id + "') || {}).textContent || ''").asText();
    }
}
