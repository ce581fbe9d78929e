package io.chronex.monitor.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server's contract: each path's content and type, the jar's files, refusals, and the live stream's documents in order. */
class WebServerTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> open = new ArrayList<>();
    private WebServer server;

    @AfterEach
    void close() throws Exception {
        for (final AutoCloseable c : open) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private HttpResponse<String> get(final String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(final String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }

    /** With a TLS identity the same documents are served over https, checked against the certificate, and plain http is not. */
    @Test
    void servesOverTlsWhenGivenAnIdentity(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir) throws Exception {
        final io.chronex.testing.TestCertificates.Generated made = io.chronex.testing.TestCertificates.create(dir, 30);
        server = new WebServer(new InetSocketAddress("127.0.0.1", 0), java.util.Set.of(),
            io.chronex.runtime.tls.TlsIdentity.fromPem(made.certificatePem(), made.privateKeyPem(), List.of()));
        assertEquals("https", server.scheme());
        server.publish("{\"n\":1}", "chronex_commands_total 1\n");
        final java.security.KeyStore trust = java.security.KeyStore.getInstance(made.trustStore().toFile(),
            io.chronex.testing.TestCertificates.PASSWORD.toCharArray());
        final javax.net.ssl.TrustManagerFactory trusting = javax.net.ssl.TrustManagerFactory.getInstance(
            javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        trusting.init(trust);
        final javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, trusting.getTrustManagers(), null);
        final HttpClient https = HttpClient.newBuilder().sslContext(context).build();
        // localhost: the name the certificate is for, checked by the client as a browser would.
        final URI state = URI.create("https://localhost:" + server.address().getPort() + "/api/state");
        final HttpResponse<String> answer = https.send(HttpRequest.newBuilder(state).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode());
        assertEquals("{\"n\":1}", answer.body());
        assertEquals("chronex_commands_total 1\n", https.send(HttpRequest.newBuilder(URI.create("https://localhost:"
            + server.address().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body());
        final HttpClient untrusting = HttpClient.newHttpClient();
        assertThrows(javax.net.ssl.SSLHandshakeException.class,
            () -> untrusting.send(HttpRequest.newBuilder(state).build(), HttpResponse.BodyHandlers.ofString()),
            "a client that does not trust the certificate is refused");
        assertThrows(java.io.IOException.class, () -> get("/api/state"), "no plain http on the https port");
    }

    @Test
    void servesTheDocumentsAndThePageFromTheJar() throws Exception {
        server = new WebServer(new InetSocketAddress("127.0.0.1", 0));
        assertEquals("{}", get("/api/state").body(), "before the first interval");
        server.publish("{\"n\":1}", "chronex_commands_total 1\n");
        final HttpResponse<String> state = get("/api/state");
        assertEquals(200, state.statusCode());
        assertEquals("application/json; charset=utf-8", state.headers().firstValue("Content-Type").orElse(""));
        assertEquals("{\"n\":1}", state.body());
        final HttpResponse<String> metrics = get("/metrics");
        assertEquals("text/plain; version=0.0.4; charset=utf-8", metrics.headers().firstValue("Content-Type").orElse(""));
        assertEquals("chronex_commands_total 1\n", metrics.body());

        final HttpResponse<String> page = get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<script src=\"vendor/uPlot.iife.min.js\"></script>"), page.body());
        assertTrue(get("/monitor.js").body().contains("await fetch(\"events\""));
        assertTrue(get("/monitor.css").body().contains(".tiles"));
        // uPlot from the WebJar on the class path, found by its version: the page needs nothing from the internet.
        final HttpResponse<String> uplot = get("/vendor/uPlot.iife.min.js");
        assertEquals(200, uplot.statusCode());
        assertTrue(uplot.body().contains("uPlot"), "uPlot's script");
        assertEquals(200, get("/vendor/uPlot.min.css").statusCode());
        assertTrue(get("/vendor/uPlot.LICENSE").body().contains("MIT"));
    }

    @Test
    void refusesWhatItDoesNotServe() throws Exception {
        server = new WebServer(new InetSocketAddress("127.0.0.1", 0));
        assertEquals(404, get("/nothing").statusCode());
        assertEquals(404, get("/../pom.xml").statusCode());
        final HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri("/api/state"))
            .POST(HttpRequest.BodyPublishers.ofString("halt")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
    }

    @Test
    void theStreamSendsTheCurrentStateThenEachNewOne() throws Exception {
        server = new WebServer(new InetSocketAddress("127.0.0.1", 0));
        server.publish("{\"n\":1}", "");
        final HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(uri("/events")).build(),
            HttpResponse.BodyHandlers.ofInputStream());
        assertEquals("text/event-stream; charset=utf-8", stream.headers().firstValue("Content-Type").orElse(""));
        final BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
        open.add(lines);
        assertEquals("data: {\"n\":1}", lines.readLine());
        assertEquals("", lines.readLine());
        server.publish("{\"n\":2}", "");
        assertEquals("data: {\"n\":2}", lines.readLine());
        assertEquals("", lines.readLine());
    }

    /** The status line of a GET of /api/state with this Host header, over a raw socket (HttpClient will not set Host). */
    private String statusWithHost(final String host) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.address().getPort())) {
            socket.getOutputStream().write(("GET /api/state HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
    }

    /** This test's server's threads (each server names them after its port). */
    private long httpThreads() {
        final String name = "monitor-http-" + server.address().getPort();
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().equals(name)).count();
    }

    /** DNS rebinding: a request whose Host is a name the monitor was not told about gets 421; IPs, localhost and its names, 200. */
    @Test
    void answersOnlyTheHostNamesItKnows() throws Exception {
        server = new WebServer(new InetSocketAddress("127.0.0.1", 0), java.util.Set.of("Monitor.Example.org", "ops.example:8080"));
        server.publish("{}", "");
        final int port = server.address().getPort();
        for (final String host : new String[] {"127.0.0.1:" + port, "127.0.0.1", "localhost:" + port, "LOCALHOST", "[::1]:" + port,
            "monitor.example.org:" + port, "monitor.example.org.", "ops.example:" + port, "10.1.2.3"}) {
            assertEquals("HTTP/1.1 200 OK", statusWithHost(host), host);
        }
        for (final String host : new String[] {"attacker.example:" + port, "attacker.example", "127.0.0.1.attacker.example",
            "localhost.attacker.example:" + port, "[attacker.example]"}) {
            assertTrue(statusWithHost(host).startsWith("HTTP/1.1 421"), host + ": " + statusWithHost(host));
        }
    }

    /**
     * 300 clients that each send half a request and stop: the server's threads stay within its bound (a cached pool gave one
     * thread each), and once the half-sent requests are cut off the server answers again.
     */
    @Test
    void halfSentRequestsTakeABoundedNumberOfThreads() throws Exception {
        server = new WebServer(new InetSocketAddress("127.0.0.1", 0));
        server.publish("{}", "");
        final List<java.net.Socket> slow = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                final java.net.Socket socket = new java.net.Socket("127.0.0.1", server.address().getPort());
                socket.getOutputStream().write("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
                slow.add(socket);
            }
            // Every thread taken by a half-sent request (a cached pool would be making more for the requests behind them):
            // then the count is exactly the bound.
            io.chronex.testing.Await.until("every server thread busy with a half-sent request", 30,
                () -> httpThreads() >= WebServer.MAX_THREADS);
            final long threads = httpThreads();
            System.out.println("monitor-http threads with 300 half-sent requests: " + threads);
            assertEquals(WebServer.MAX_THREADS, threads, "threads");
            io.chronex.testing.Await.until("the server answering again once the half-sent requests are cut off", 60, () -> {
                try {
                    return get("/api/state").statusCode() == 200;
                } catch (final java.io.IOException e) {
                    return false; // refused while every thread and queue place is taken
                }
            });
        } finally {
            for (final java.net.Socket socket : slow) {
                socket.close();
            }
        }
    }

    @Test
    void limitsTheLiveStreams() throws Exception {
        server = new WebServer(new InetSocketAddress("127.0.0.1", 0));
        server.publish("{}", "");
        for (int i = 0; i < WebServer.MAX_STREAMS; i++) {
            final HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(uri("/events")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, stream.statusCode());
            final BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
            open.add(lines);
            assertEquals("data: {}", lines.readLine(), "stream " + i + " is being served");
        }
        final HttpResponse<String> refused = get("/events");
        assertEquals(503, refused.statusCode());
        assertEquals("3", refused.headers().firstValue("Retry-After").orElse(""), "the page waits at least this");
        assertEquals(200, get("/api/state").statusCode(), "the rest of the server still answers");
    }
}
