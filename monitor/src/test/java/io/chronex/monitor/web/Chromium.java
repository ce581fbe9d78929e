package io.chronex.monitor.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chronex.testing.Await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A headless Chromium driven over the DevTools protocol (a WebSocket of JSON messages, the JDK's own
 * client): open a page, evaluate an expression in it, collect what the console reports as an error,
 * take a screenshot. Just what a page test needs, with the browser the machine has (Debian's
 * chromium package), so a test never downloads a browser.
 */
final class Chromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());

    /**
     * The machine's Chromium: $CHRONEX_CHROMIUM, else chromium, chromium-browser or google-chrome on the PATH. When
     * there is none and this runs as root with apt-get, installs Debian's chromium package first (as .ci/run does), so
     * the README's test command works on a fresh machine; otherwise fails saying how to install it. Never skipped.
     */
    static Path binary(final Path log) throws Exception {
        Path found = find();
        if (found == null && "root".equals(System.getProperty("user.name")) && find("apt-get") != null) {
            final Process install = new ProcessBuilder("sh", "-c",
                "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!install.waitFor(15, TimeUnit.MINUTES)) {
                install.destroyForcibly();
            }
            found = find();
        }
        if (found == null) {
            throw new IllegalStateException("the monitor page test needs Chromium: install Debian's package (apt-get install chromium)"
                + " or set CHRONEX_CHROMIUM to a Chromium or Chrome binary" + (Files.exists(log) ? "; install log: " + log : ""));
        }
        return found;
    }

    private static Path find() {
        final String configured = System.getenv("CHRONEX_CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        for (final String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
            final Path path = find(name);
            if (path != null) {
                return path;
            }
        }
        return null;
    }

    private static Path find(final String name) {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            final Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Starts the browser on about:blank with its own profile under {@code profile}, the window {@code width} × {@code height}. */
    Chromium(final Path binary, final Path profile, final int width, final int height) throws Exception {
        final Path log = profile.resolveSibling(profile.getFileName() + ".log");
        // The flags a closed network needs (no background connections, no component updates), and root's --no-sandbox.
        process = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-extensions", "--user-data-dir=" + profile, "--remote-debugging-port=0", "--remote-allow-origins=*",
            "--window-size=" + width + "," + height, "about:blank")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        // Chromium writes the port it picked, and the browser's endpoint, into the profile once it listens.
        final Path portFile = profile.resolve("DevToolsActivePort");
        Await.until("Chromium's DevToolsActivePort (log: " + log + ")", 60,
            () -> Files.exists(portFile) && Files.readAllLines(portFile).size() >= 2);
        final int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
        final HttpClient http = HttpClient.newHttpClient();
        final JsonNode[] page = new JsonNode[1];
        Await.until("a page target in Chromium", 30, () -> {
            final String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            for (final JsonNode target : JSON.readTree(list)) {
                if ("page".equals(target.path("type").asText())) {
                    page[0] = target;
                    return true;
                }
            }
            return false;
        });
        socket = http.newWebSocketBuilder().buildAsync(URI.create(page[0].get("webSocketDebuggerUrl").asText()), new Listener())
            .get(30, TimeUnit.SECONDS);
        call("Runtime.enable", Map.of());
        call("Log.enable", Map.of());
        call("Page.enable", Map.of());
    }

    /** Sends a command and waits for its answer; a protocol error is an exception. */
    JsonNode call(final String method, final Map<String, ?> params) throws Exception {
        final int id = ids.incrementAndGet();
        final CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        final ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", JSON.valueToTree(params));
        socket.sendText(JSON.writeValueAsString(message), true).get(30, TimeUnit.SECONDS);
        final JsonNode reply = answer.get(60, TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IllegalStateException(method + ": " + reply.get("error"));
        }
        return reply.get("result");
    }

    void navigate(final String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
    }

    /** The value of a JavaScript expression in the page (awaited if it is a promise); an exception in it fails. */
    JsonNode evaluate(final String expression) throws Exception {
        final JsonNode result = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("'" + expression + "' threw: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** Writes a PNG of the page as shown into {@code file}. */
    void screenshot(final Path file) throws Exception {
        final JsonNode shot = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
    }

    /** Every error the page reported: uncaught exceptions, console.error and console.assert, failed loads. */
    List<String> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }

    private void onMessage(final JsonNode message) {
        if (message.has("id")) {
            final CompletableFuture<JsonNode> answer = waiting.remove(message.get("id").asInt());
            if (answer != null) {
                answer.complete(message);
            }
            return;
        }
        final JsonNode params = message.path("params");
        switch (message.path("method").asText()) {
            case "Runtime.exceptionThrown" -> errors.add("exception: " + params.path("exceptionDetails"));
            case "Runtime.consoleAPICalled" -> {
                final String type = params.path("type").asText();
                if ("error".equals(type) || "assert".equals(type)) {
                    errors.add("console." + type + ": " + params.path("args"));
                }
            }
            case "Log.entryAdded" -> {
                if ("error".equals(params.path("entry").path("level").asText())) {
                    errors.add("log: " + params.path("entry").path("text").asText() + " " + params.path("entry").path("url").asText());
                }
            }
            default -> {
                // other events are not needed
            }
        }
    }

    /** Joins a message's frames, then hands it on. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder frames = new StringBuilder();

        @Override
        public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last) {
            frames.append(data);
            if (last) {
                try {
                    onMessage(JSON.readTree(frames.toString()));
                } catch (final IOException e) {
                    errors.add("unreadable DevTools message: " + e.getMessage());
                }
                frames.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        } catch (final RuntimeException e) {
            // the browser is stopped below either way
        }
        final List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (final InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
