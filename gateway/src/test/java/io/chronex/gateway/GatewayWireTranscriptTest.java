package io.chronex.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The FIX gateway's answers, byte for byte, to a script of what clients send (src/test/resources/wire/fix-transcript.txt):
 * lines {@code > CLIENT TYPE FIELDS} are sent, lines {@code < CLIENT MESSAGE} are the messages that client must receive
 * next, in order. Only what differs from run to run is masked: BodyLength, CheckSum, SendingTime, OrigSendingTime,
 * TransactTime, and the identifiers made from journal indexes or the gateway's start time (ExecID and the like), each replaced
 * by a name for the order in which the value first appeared, so a report that repeats an ExecID still has to repeat it.
 *
 * <p>This is the guard of the gateway's cut into an order-entry core and protocol front-ends: whatever moves inside,
 * the wire must not change. {@code -Dchronex.transcript.update=true} rewrites the expected lines from what the gateway
 * sends (for a deliberate change, reviewed in the diff); the test still fails then, so an update never passes unseen.
 */
class GatewayWireTranscriptTest {
    private static final Path SCRIPT = io.chronex.testing.ProjectRoot.resolve("gateway/src/test/resources/wire/fix-transcript.txt");
    private static final String SESSIONS = """
          - {senderCompId: GOLD1, account: 1, marketData: true}
          - {senderCompId: GOLD2, account: 2}
        """;
    /** Tags whose values change with the clock. */
    private static final int[] TIMES = {9, 10, 52, 60, 122};
    /** Tags whose values are made from journal indexes or the start time: named by first appearance. */
    private static final int[] IDS = {17, 19, 37, 790, 904, 908, 909, 1180};

    @TempDir
    Path tmp;

    @Test
    void theGatewayAnswersTheScriptAsItAlwaysHas() throws Exception {
        final List<String> lines = Files.readAllLines(SCRIPT, StandardCharsets.UTF_8);
        final List<String> actual = new ArrayList<>(lines.size());
        final Map<String, String> names = new HashMap<>();
        final Map<String, FixText> clients = new java.util.LinkedHashMap<>();
        final boolean update = Boolean.getBoolean("chronex.transcript.update");
        try (Exchange exchange = new Exchange(tmp, SESSIONS)) {
            exchange.startEngine();
            exchange.startGateway();
            for (final String line : lines) {
                if (line.startsWith("> ")) {
                    final String[] parts = line.split(" ", 4);
                    final FixText client = clients.computeIfAbsent(parts[1], name -> connect(exchange.port, name));
                    client.send(parts[2], parts.length > 3 ? parts[3].replace('|', '\u0001') : "");
                    actual.add(line);
                    if (update) {
                        recordAnswers(clients, names, actual);
                    }
                } else if (line.startsWith("< ")) {
                    if (!update) {
                        final String client = line.split(" ", 3)[1];
                        final FixText.Fields m = clients.get(client).next();
                        actual.add("< " + client + " " + masked(m.text, names));
                    }
                } else {
                    actual.add(line);
                }
            }
            for (final Map.Entry<String, FixText> c : clients.entrySet()) {
                // Nothing more than the script says: a message the gateway sends beyond it is a change too.
                final FixText.Fields extra = c.getValue().poll(500);
                if (extra != null) {
                    actual.add("< " + c.getKey() + " " + masked(extra.text, names));
                }
            }
            for (final FixText c : clients.values()) {
                c.close();
            }
        } catch (final IOException | RuntimeException e) {
            if (update) {
                Files.write(tmp.getParent().resolve("fix-transcript.partial"), actual, StandardCharsets.UTF_8);
                Files.writeString(tmp.getParent().resolve("fix-transcript.gateway.log"), Files.readString(tmp.resolve("gateway-1.out")));
            }
            throw e;
        }
        if (update) {
            Files.write(SCRIPT, actual, StandardCharsets.UTF_8);
        }
        assertEquals(String.join("\n", lines), String.join("\n", actual), "the gateway's answers changed (see " + SCRIPT + ")");
        if (update) {
            throw new AssertionError("expected lines rewritten from this run (chronex.transcript.update): review the diff");
        }
    }

    /**
     * Update mode: everything each client receives until all have been quiet for 0.3 s (the script's '<' lines are
     * written from this, so their count is what the gateway sent, not a guess).
     */
    private static void recordAnswers(final Map<String, FixText> clients, final Map<String, String> names, final List<String> out)
        throws IOException {
        boolean quiet = false;
        while (!quiet) {
            quiet = true;
            for (final Map.Entry<String, FixText> c : clients.entrySet()) {
                for (FixText.Fields m = c.getValue().poll(300); m != null; m = c.getValue().poll(300)) {
                    out.add("< " + c.getKey() + " " + masked(m.text, names));
                    quiet = false;
                }
            }
        }
    }

    private static FixText connect(final int port, final String sender) {
        try {
            return FixText.connect(port, sender);
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The message with '|' for SOH and the varying values masked (see the class comment). */
    static String masked(final String message, final Map<String, String> names) {
        final StringBuilder out = new StringBuilder(message.length());
        for (final String field : message.split("\u0001")) {
            final int eq = field.indexOf('=');
            final int tag = Integer.parseInt(field.substring(0, eq));
            String value = field.substring(eq + 1);
            if (contains(TIMES, tag)) {
                value = "*";
            } else if (contains(IDS, tag)) {
                final String v = value;
                value = names.computeIfAbsent(tag + "=" + v, k -> "<" + tag + "#" + (1 + count(names, tag)) + ">");
            }
            out.append(tag).append('=').append(value).append('|');
        }
        return out.toString();
    }

    private static long count(final Map<String, String> names, final int tag) {
        return names.keySet().stream().filter(k -> k.startsWith(tag + "=")).count();
    }

    private static boolean contains(final int[] tags, final int tag) {
        for (final int t : tags) {
            if (t == tag) {
                return true;
            }
        }
        return false;
    }
}
