package io.chronex.gateway;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A raw FIX client for bulk tests: buffered writes, a byte-level reader that keeps up with a
 * gateway sending hundreds of thousands of messages, its own outbound MsgSeqNum (kept across
 * reconnects, so a test can log on again without a reset), and exact control over when it reads.
 */
final class RawFixClient implements AutoCloseable {
    /** One received message: its fields (the last value of a repeated tag), and the whole of it in order. */
    static final class Msg {
        final Map<Integer, String> fields = new HashMap<>();
        /** The message as received, '|' for SOH: "8=FIX.4.4|9=...|10=ddd|". */
        final StringBuilder text = new StringBuilder();

        String get(final int tag) {
            return fields.get(tag);
        }

        int seq() {
            return Integer.parseInt(fields.get(34));
        }

        String type() {
            return fields.get(35);
        }

        @Override
        public String toString() {
            return fields.toString();
        }
    }

    private final String sender;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private int nextOut = 1;
    private final byte[] field = new byte[8192];

    RawFixClient(final String sender) {
        this.sender = sender;
    }

    /** Connects; a receive buffer of 0 keeps the system's, any other is set before connecting (so it stays small). */
    void connect(final int port, final int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(30_000);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    }

    /** Logs on (with ResetSeqNumFlag=Y when reset: our numbers start at 1 again) and returns the gateway's Logon. */
    Msg logOn(final boolean reset) throws IOException {
        if (reset) {
            nextOut = 1;
        }
        send("A", "98=0\u0001108=30\u0001" + (reset ? "141=Y\u0001" : ""));
        flush();
        return expect("A");
    }

    int nextOut() {
        return nextOut;
    }

    /** Queues a message with our next MsgSeqNum (written at {@link #flush} or when the buffer fills). */
    void send(final String msgType, final String fields) throws IOException {
        final String body = "35=" + msgType + "\u000149=" + sender + "\u000156=CHRONEX\u000134=" + (nextOut++)
            + "\u000152=" + FixText.now() + "\u0001" + fields;
        out.write(FixText.whole(body));
    }

    void flush() throws IOException {
        out.flush();
    }

    /** An order the gateway refuses itself (unknown symbol): one ExecutionReport back, nothing journalled. */
    void sendRefusedOrder(final int n) throws IOException {
        send("D", "11=R" + n + "\u000155=NOSUCH\u000154=1\u000138=1\u000140=2\u000144=1.00\u000160=20261123-10:00:00\u0001");
    }

    /** The next message, or an exception when the connection ends or 30 s pass. */
    Msg next() throws IOException {
        final Msg m = new Msg();
        while (true) {
            final int length = readField();
            int eq = 0;
            while (eq < length && field[eq] != '=') {
                eq++;
            }
            int tag = 0;
            for (int i = 0; i < eq; i++) {
                tag = tag * 10 + field[i] - '0';
            }
            m.fields.put(tag, new String(field, eq + 1, length - eq - 1, StandardCharsets.ISO_8859_1));
            for (int i = 0; i < length; i++) {
                m.text.append((char) (field[i] & 0xFF));
            }
            m.text.append('|');
            if (tag == 10) {
                return m;
            }
        }
    }

    private int readField() throws IOException {
        int n = 0;
        while (true) {
            final int b = in.read();
            if (b < 0) {
                throw new IOException("the gateway closed the connection");
            }
            if (b == 1) {
                return n;
            }
            field[n++] = (byte) b;
        }
    }

    /** Reads until a message of this type arrives (others are skipped) and returns it. */
    Msg expect(final String msgType) throws IOException {
        while (true) {
            final Msg m = next();
            if (msgType.equals(m.type())) {
                return m;
            }
        }
    }

    /** Reads until the gateway closes the connection; false if 30 s pass first. */
    boolean closedByPeer() throws IOException {
        try {
            while (in.read() >= 0) {
                // skipped: only the end of the stream is looked for
            }
            return true;
        } catch (final SocketTimeoutException e) {
            return false;
        } catch (final IOException e) {
            return true;
        }
    }

    /** Closes the connection; the client keeps its MsgSeqNum and may {@link #connect} again. */
    void disconnect() throws IOException {
        if (socket != null) {
            socket.close();
        }
    }

    @Override
    public void close() throws IOException {
        disconnect();
    }
}
