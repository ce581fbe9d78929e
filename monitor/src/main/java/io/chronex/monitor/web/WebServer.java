package io.chronex.monitor.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.chronex.runtime.tls.TlsIdentity;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The monitor's browser face: the page and its scripts from this jar, {@code /api/state} (JSON),
 * {@code /metrics} (Prometheus text) and {@code /events} (server-sent events, one state per
 * interval). The JDK's own HTTP server: a read-only page for a handful of operators needs no more,
 * and it adds no dependency to the process. The monitor's thread publishes finished documents
 * (immutable strings); the server's threads only read them, so they never touch the model.
 */
public final class WebServer implements AutoCloseable {
    /** Live-update streams served at once; more get 503, so a page left open in many tabs cannot take every thread. */
    static final int MAX_STREAMS = 32;
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9a-f:.]+(%[0-9a-z]+)?]");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    /** Threads serving requests: every stream, and a few for the page's files, /api/state and /metrics beside them. */
    static final int MAX_THREADS = MAX_STREAMS + 8;
    /** Requests waiting for a thread; more are refused (the connection closed). */
    static final int MAX_QUEUED = 64;
    /** A request whose headers have not all come after this long is cut off (the JDK server's sun.net.httpserver.maxReqTime). */
    static final int MAX_REQUEST_SECONDS = 3;

    static {
        // Read once, when the JDK's server first starts; an operator's own -D setting wins.
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
        }
    }

    /** What a page refused a stream is told to wait before it asks again. */
    static final int RETRY_AFTER_SECONDS = 3;
    /** A comment line this often on a quiet stream, so proxies and browsers keep it open. */
    private static final long KEEPALIVE_MS = 15_000;
    private static final String UPLOT = "META-INF/resources/webjars/uplot/" + uplotVersion() + "/dist/";
    /** Path → (class-path resource, content type): everything the page needs, nothing fetched from elsewhere. */
    private static final Map<String, String[]> FILES = Map.of(
        "/", new String[] {"io/chronex/monitor/web/index.html", "text/html; charset=utf-8"},
        "/index.html", new String[] {"io/chronex/monitor/web/index.html", "text/html; charset=utf-8"},
        "/monitor.js", new String[] {"io/chronex/monitor/web/monitor.js", "text/javascript; charset=utf-8"},
        "/monitor.css", new String[] {"io/chronex/monitor/web/monitor.css", "text/css; charset=utf-8"},
        "/vendor/uPlot.iife.min.js", new String[] {UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
        "/vendor/uPlot.min.css", new String[] {UPLOT + "uPlot.min.css", "text/css; charset=utf-8"},
        "/vendor/uPlot.LICENSE", new String[] {"META-INF/resources/webjars/uplot/" + uplotVersion() + "/LICENSE",
            "text/plain; charset=utf-8"});

    private final HttpServer server;
    private final ExecutorService threads;
    private final AtomicInteger streams = new AtomicInteger();
    private final Object published = new Object();
    private String state = "{}";
    private String metrics = "";
    private long version;
    private volatile boolean closed;
    /** Host names answered besides IP literals and localhost. */
    private final Set<String> hostNames;

    /** Binds {@code address} (port 0: any free port) and starts serving requests addressed by IP or as localhost. */
    public WebServer(final InetSocketAddress address) throws IOException {
        this(address, Set.of());
    }

    /**
     * As above, also answering requests whose Host header is one of {@code hostNames} (case-insensitive, without port):
     * the names operators reach this host by.
     */
    public WebServer(final InetSocketAddress address, final Set<String> hostNames) throws IOException {
        this(address, hostNames, null);
    }

    /** As above, over TLS (https) when {@code tls} is given: the same server, the JDK's HttpsServer. */
    public WebServer(final InetSocketAddress address, final Set<String> hostNames, final TlsIdentity tls) throws IOException {
        // A name given with its port, or fully qualified, means the name.
        this.hostNames = hostNames.stream().map(n -> hostName(n.toLowerCase(Locale.ROOT)).replaceFirst("\\.$", ""))
            .collect(Collectors.toUnmodifiableSet());
        server = tls == null ? HttpServer.create(address, 64) : https(address, tls);
        // Bounded whatever the number of connections: the JDK server reads a request's headers on the executor's thread, so
        // each client that sends half a request held a thread of a cached pool (4,000 such clients, 3,896 threads). Now at
        // most MAX_THREADS run, MAX_QUEUED wait, and the server closes the connections beyond (it catches the rejection);
        // a half-sent request is cut after MAX_REQUEST_SECONDS, so the threads come back.
        threads = new ThreadPoolExecutor(MAX_THREADS, MAX_THREADS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(MAX_QUEUED), r -> {
            final Thread t = new Thread(r, "monitor-http-" + server.getAddress().getPort());
            t.setDaemon(true);
            return t;
        });
        ((ThreadPoolExecutor) threads).allowCoreThreadTimeOut(true);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    private static HttpsServer https(final InetSocketAddress address, final TlsIdentity tls) throws IOException {
        final HttpsServer https = HttpsServer.create(address, 64);
        https.setHttpsConfigurator(new HttpsConfigurator(tls.context()) {
            @Override
            public void configure(final HttpsParameters parameters) {
                parameters.setSSLParameters(tls.parameters());
            }
        });
        return https;
    }

    /** "https" or "http", for the address the monitor prints. */
    public String scheme() {
        return server instanceof HttpsServer ? "https" : "http";
    }

    /** The bound address (the actual port when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Makes a new state and metrics document current and wakes every live-update stream. */
    public void publish(final String stateJson, final String metricsText) {
        synchronized (published) {
            state = stateJson;
            metrics = metricsText;
            version++;
            published.notifyAll();
        }
    }

    private void handle(final HttpExchange exchange) throws IOException {
        try (exchange) {
            final String method = exchange.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "only GET and HEAD: the monitor is read-only\n");
                return;
            }
            final String host = exchange.getRequestHeaders().getFirst("Host");
            if (!hostAllowed(host)) {
                // DNS rebinding: a web page of another site whose name is pointed at this host would be let read the
                // exchange's state through the operator's browser. Only names this monitor was told about are answered.
                send(exchange, 421, "text/plain; charset=utf-8", "the monitor does not answer to Host '" + host
                    + "': reach it by its IP address or localhost, or start it with --http-host " + hostName(host) + "\n");
                return;
            }
            final String path = exchange.getRequestURI().getPath();
            switch (path) {
                case "/api/state" -> send(exchange, 200, "application/json; charset=utf-8", current(true));
                case "/metrics" -> send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", current(false));
                case "/events" -> stream(exchange);
                default -> file(exchange, path);
            }
        }
    }

    /** An IP literal (v4, or v6 in brackets), localhost, or a name given with --http-host, each with or without a port. */
    boolean hostAllowed(final String host) {
        if (host == null) {
            return true; // HTTP/1.0 clients and scrapers without one: not a browser, which always sends it
        }
        String name = hostName(host).toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1); // the fully qualified form of the same name
        }
        return name.equals("localhost") || IPV6.matcher(name).matches() || IPV4.matcher(name).matches() || hostNames.contains(name);
    }

    /** The Host header without its port. */
    private static String hostName(final String host) {
        if (host.startsWith("[")) {
            final int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        final int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    private String current(final boolean json) {
        synchronized (published) {
            return json ? state : metrics;
        }
    }

    private void file(final HttpExchange exchange, final String path) throws IOException {
        final String[] file = FILES.get(path);
        final InputStream in = file == null ? null : WebServer.class.getClassLoader().getResourceAsStream(file[0]);
        if (in == null) {
            send(exchange, 404, "text/plain; charset=utf-8", "not found: " + path + "\n");
            return;
        }
        final byte[] body;
        try (in) {
            body = in.readAllBytes();
        }
        send(exchange, 200, file[1], body);
    }

    /** Server-sent events: the current state at once, then each new one as it is published, until the client goes. */
    private void stream(final HttpExchange exchange) throws IOException {
        if (streams.incrementAndGet() > MAX_STREAMS) {
            streams.decrementAndGet();
            // The page retries no sooner than this (it backs off by itself too): a restarted monitor is not stormed.
            exchange.getResponseHeaders().set("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            send(exchange, 503, "text/plain; charset=utf-8", "too many live pages open (" + MAX_STREAMS + ")\n");
            return;
        }
        try {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.sendResponseHeaders(200, 0);
            final OutputStream out = exchange.getResponseBody();
            long sent = -1;
            while (!closed) {
                final String next;
                synchronized (published) {
                    if (version == sent) {
                        published.wait(KEEPALIVE_MS);
                    }
                    next = version == sent ? null : state;
                    sent = version;
                }
                // A client that has gone shows here as an IOException: the stream ends and its thread is freed.
                out.write(next == null ? ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8)
                    : ("data: " + next + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            streams.decrementAndGet();
        }
    }

    private static void send(final HttpExchange exchange, final int status, final String type, final String body) throws IOException {
        send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(final HttpExchange exchange, final int status, final String type, final byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        final boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            exchange.getResponseBody().write(body);
        }
    }

    /** uPlot's version, as the build put it on the class path (the WebJar's pom properties). */
    private static String uplotVersion() {
        try (InputStream in = WebServer.class.getClassLoader()
            .getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            final java.util.Properties p = new java.util.Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "missing");
        } catch (final IOException e) {
            return "missing";
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (published) {
            published.notifyAll();
        }
        server.stop(0);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
