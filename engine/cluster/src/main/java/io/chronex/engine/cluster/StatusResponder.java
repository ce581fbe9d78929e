package io.chronex.engine.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.chronex.runtime.MemberStatus;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A member's status over the network, read-only: {@code GET /status} on the member's host and status port answers
 * {@link MemberStatus}'s lines, made on the responder's own thread from the member's counters (volatile reads of its
 * driver's memory), so asking never touches, locks or waits for the consensus module or the service. The JDK's HTTP
 * server, as the monitor's page uses: plain enough for {@code curl}, no dependency added to the member.
 */
public final class StatusResponder implements AutoCloseable {
    /** Requests queued for the one thread; more are refused (the JDK server closes their connections). */
    static final int MAX_QUEUED = 16;
    /** A request whose headers have not all come after this long is cut off (the JDK server's sun.net.httpserver.maxReqTime). */
    static final int MAX_REQUEST_SECONDS = 2;

    static {
        // Read once, when the JDK's server first starts; an operator's own -D setting wins. Without it a client that sends
        // half a request holds the responder's one thread for good.
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
        }
    }

    private final HttpServer server;
    private final ThreadPoolExecutor thread;
    private final Supplier<MemberStatus> status;
    /** Guarded by {@code this}: once closed, {@link #status} is not called again (it reads memory the driver unmaps). */
    private boolean closed;

    /** Binds {@code address} (port 0: any free port) and answers with what {@code status} reads at each request. */
    public StatusResponder(final InetSocketAddress address, final Supplier<MemberStatus> status) throws IOException {
        this.status = status;
        server = HttpServer.create(address, 16);
        // One thread, a short queue: a flood of clients can keep the status from being answered, never reach the member's
        // other threads. The JDK server reads a request's headers on this thread; the cut above frees it from a slow client.
        thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_QUEUED), r -> {
            final Thread t = new Thread(r, "member-status-" + address.getPort());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The bound address (the actual port when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(final HttpExchange exchange) throws IOException {
        try {
            final String method = exchange.getRequestMethod();
            if (!MemberStatus.PATH.equals(exchange.getRequestURI().getPath())) {
                answer(exchange, 404, "not found: a member answers GET " + MemberStatus.PATH + " only\n");
            } else if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                answer(exchange, 405, "a member's status is read-only: GET " + MemberStatus.PATH + "\n");
            } else {
                String text;
                int code = 200;
                try {
                    text = read().text();
                } catch (final RuntimeException e) {
                    code = 500;
                    text = "cannot read the member's counters: " + e + "\n";
                }
                answer(exchange, code, text);
            }
        } finally {
            exchange.close();
        }
    }

    private synchronized MemberStatus read() {
        if (closed) {
            throw new IllegalStateException("the member is stopping");
        }
        return status.get();
    }

    private static void answer(final HttpExchange exchange, final int code, final String text) throws IOException {
        final byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        exchange.getResponseHeaders().set("Content-Type", code == 200 ? MemberStatus.CONTENT_TYPE : "text/plain; charset=us-ascii");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if ("HEAD".equals(exchange.getRequestMethod())) {
            exchange.sendResponseHeaders(code, -1);
            return;
        }
        exchange.sendResponseHeaders(code, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /**
     * Stops answering at once (the listening socket and open connections are closed); once it returns, the status is not
     * read again, so the member may close its media driver.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        server.stop(0);
        thread.shutdownNow();
    }
}
