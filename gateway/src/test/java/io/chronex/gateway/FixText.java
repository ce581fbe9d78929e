package io.chronex.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A deliberately naive FIX client over a blocking socket, for tests that must send what no real
 * FIX engine would: messages are written as text with SOH, broken on purpose where needed.
 */
final class FixText implements AutoCloseable {
    /** One received message's fields (the last value of a repeated tag). */
    static final class Fields {
        final Map<Integer, String> values = new HashMap<>();
        /** The whole message as received, SOH between fields. */
        String text;

        String get(final int tag) {
            return values.get(tag);
        }

        @Override
        public String toString() {
            return values.toString();
        }
    }

    private static final java.time.format.DateTimeFormatter TIMESTAMP =
        java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(java.time.ZoneOffset.UTC);

    private final Socket socket;
    private final InputStream in;
    private final String sender;
    private int seq = 1;
    private final StringBuilder received = new StringBuilder();

    private FixText(final Socket socket, final String sender) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.sender = sender;
        socket.setSoTimeout(15_000);
    }

    /** Connects without sending anything: the caller's first message is MsgSeqNum 1. */
    static FixText connect(final int port, final String sender) throws IOException {
        return new FixText(new Socket("127.0.0.1", port), sender);
    }

    /** Connects and logs on with ResetSeqNumFlag=Y. */
    static FixText logOn(final int port, final String sender) throws IOException {
        final FixText client = new FixText(new Socket("127.0.0.1", port), sender);
        client.sendRaw(logon(sender, client.seq++));
        client.expect("A");
        return client;
    }

    static byte[] logon(final String sender, final int seq) {
        return logon(sender, seq, true, 30);
    }

    static byte[] logon(final String sender, final int seq, final boolean reset, final int heartBtInt) {
        return whole("35=A\u000149=" + sender + "\u000156=CHRONEX\u000134=" + seq + "\u000152=" + now() + "\u0001"
            + "98=0\u0001108=" + heartBtInt + "\u0001" + (reset ? "141=Y\u0001" : ""));
    }

    /**
     * Connects and sends a Logon with this MsgSeqNum (ResetSeqNumFlag and HeartBtInt as given) without
     * reading the answer; the client's next message gets seq + 1.
     */
    static FixText sendLogon(final int port, final String sender, final int seq, final boolean reset, final int heartBtInt)
        throws IOException {
        final FixText client = new FixText(new Socket("127.0.0.1", port), sender);
        client.seq = seq + 1;
        client.sendRaw(logon(sender, seq, reset, heartBtInt));
        return client;
    }

    /** Connects and sends a Logon (MsgSeqNum 1, ResetSeqNumFlag=Y) with this password (554) without reading the answer. */
    static FixText sendLogon(final int port, final String sender, final String password) throws IOException {
        final FixText client = new FixText(new Socket("127.0.0.1", port), sender);
        client.seq = 2;
        client.sendRaw(whole("35=A\u000149=" + sender + "\u000156=CHRONEX\u000134=1\u000152=" + now() + "\u000198=0\u0001108=30\u0001"
            + "141=Y\u0001554=" + password + "\u0001"));
        return client;
    }

    /** The body (35 to the last field before 10) of a message with the next sequence number. */
    String body(final String msgType, final String fields) {
        return body(seq++, msgType, fields);
    }

    private String body(final int msgSeqNum, final String msgType, final String fields) {
        return "35=" + msgType + "\u000149=" + sender + "\u000156=CHRONEX\u000134=" + msgSeqNum + "\u000152=" + now() + "\u0001"
            + fields;
    }

    /** The time now as a UTCTimestamp: the gateway checks SendingTime (52) against its clock (FIX 4.4 test case 2). */
    static String now() {
        return TIMESTAMP.format(java.time.Instant.now());
    }

    void send(final String msgType, final String fields) throws IOException {
        sendRaw(whole(body(msgType, fields)));
    }

    void sendWithSeq(final int msgSeqNum, final String msgType, final String fields) throws IOException {
        sendRaw(whole(body(msgSeqNum, msgType, fields)));
    }

    void sendRaw(final byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    static byte[] whole(final String body) {
        final String head = "8=FIX.4.4\u00019=" + body.length() + "\u0001";
        return (head + body + "10=" + checksum(head + body) + "\u0001").getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] withChecksum(final String body, final String checksum) {
        return ("8=FIX.4.4\u00019=" + body.length() + "\u0001" + body + "10=" + checksum + "\u0001").getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A message whose BodyLength is off by delta (its CheckSum is right). */
    static byte[] withBodyLength(final String body, final int delta) {
        final String head = "8=FIX.4.4\u00019=" + (body.length() + delta) + "\u0001";
        return (head + body + "10=" + checksum(head + body) + "\u0001").getBytes(StandardCharsets.ISO_8859_1);
    }

    static String checksum(final String text) {
        int sum = 0;
        for (final byte b : text.getBytes(StandardCharsets.ISO_8859_1)) {
            sum += b & 0xFF;
        }
        return String.format("%03d", sum & 0xFF);
    }

    /** Reads messages until one of this type arrives (others, such as heartbeats, are skipped). */
    Fields expect(final String msgType) throws IOException {
        final long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline) {
            final Fields m = next();
            if (msgType.equals(m.get(35))) {
                return m;
            }
        }
        throw new AssertionError("no message of type " + msgType);
    }

    /** Reads until the gateway closes the connection; false if 15 s pass first. Messages still arriving are skipped. */
    boolean closedByPeer() throws IOException {
        final byte[] buffer = new byte[4096];
        try {
            while (in.read(buffer) >= 0) {
                // skipped: only the end of the stream is looked for
            }
            return true;
        } catch (final java.net.SocketTimeoutException e) {
            return false;
        }
    }

    /** The next message if one arrives within this many milliseconds, null if none does or the connection has ended. */
    Fields poll(final int millis) throws IOException {
        final int before = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            return next();
        } catch (final java.net.SocketTimeoutException e) {
            return null;
        } catch (final IOException e) {
            if (socket.isClosed() || e.getMessage() != null && e.getMessage().startsWith("the gateway closed")) {
                return null;
            }
            throw e;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(before);
            }
        }
    }

    /** The next message, whatever its type. */
    Fields next() throws IOException {
        final byte[] buffer = new byte[4096];
        while (true) {
            final int end = received.indexOf("\u000110=");
            if (end >= 0 && received.length() >= end + 8) {
                final String message = received.substring(0, end + 8);
                received.delete(0, end + 8);
                final Fields fields = new Fields();
                fields.text = message;
                for (final String field : message.split("\u0001")) {
                    final int eq = field.indexOf('=');
                    if (eq > 0) {
                        fields.values.put(Integer.parseInt(field.substring(0, eq)), field.substring(eq + 1));
                    }
                }
                return fields;
            }
            final int n = in.read(buffer);
            if (n < 0) {
                throw new IOException("the gateway closed the connection; unread: " + received);
            }
            received.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
