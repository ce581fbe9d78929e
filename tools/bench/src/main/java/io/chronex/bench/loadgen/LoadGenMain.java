package io.chronex.bench.loadgen;

import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.queues.OutputFile;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.Tool;
import io.chronex.runtime.tls.TlsChannel;
import io.chronex.runtime.tls.TlsIdentity;
import org.HdrHistogram.Histogram;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * bin/loadgen: a FIX 4.4 client that logs N sessions on and sends a realistic order flow (orders
 * that rest and that cross, cancels, replaces) at a constant rate or ping-pong, and measures each
 * request's round trip to its first answer with HdrHistogram. In rate mode the clock starts at the
 * request's intended send time, so a stall anywhere counts against every request it delayed
 * (coordinated omission corrected). One thread drives every session without blocking.
 */
public final class LoadGenMain {
    static final String USAGE = """
        Usage: bin/loadgen --port P [--host H] [--sessions N] [--rate R] (--duration S | --count C)
                           [--mode rate|pingpong] [--symbols SYM=MID,...] [--sender-prefix LOAD] [--target CHRONEX]
                           [--password PW] [--warmup N] [--hgrm FILE] [--seed N] [--quiet] [--data-dir DIR] [--tls-trust PEM]

        Logs N FIX 4.4 sessions on (SenderCompID PREFIX1..PREFIXN, ResetSeqNumFlag=Y) and sends orders:
        60% limit orders that rest a few ticks off the mid, 15% that cross it, 15% cancels and 10%
        replaces of the session's own resting orders (a session with over 2,000 resting orders cancels
        instead of adding more). Each request's round trip ends at its first ExecutionReport or
        OrderCancelReject.

          --port P           the gateway's port (required); --host (default 127.0.0.1)
          --tls-trust PEM    connect over TLS (a gateway with tls in its file), trusting the certificates in PEM (the
                             gateway's own, or the authority that signed it); the certificate must name --host
          --sessions N       sessions, round robin (default 1; the demo configuration has LOAD1..LOAD8)
          --mode MODE        rate: send at a constant total rate R, latency from each intended send time
                             pingpong: one request at a time, the next when the answer arrives (default rate)
          --rate R           requests per second in rate mode (default 10000)
          --duration S       seconds of sending, or --count C requests (default --duration 10)
          --symbols LIST     symbols and their mid prices (default ACME=100.00); prices move in 0.01 ticks
          --warmup N         the first N answers are left out of the histogram (default 1000)
          --hgrm FILE        write the round-trip distribution (microseconds) as an HdrHistogram .hgrm file
          --seed N           random seed of the order flow (default 42)
          --quiet            no progress line each second
          --data-dir DIR     also write DIR/loadgen.pid while running and the results to DIR/loadgen.log
          --help             this text

        SIGTERM or Ctrl-C stops sending, waits for the answers, logs out and prints the results so far.
        Prints throughput, answers by kind, and round-trip percentiles p50 .. max in microseconds, then
        one line: RESULT sent=.. answers=.. trades=.. rejects=.. throughput=.. p50_us=.. p99_us=.. max_us=..
        """;

    private static final long SECOND = 1_000_000_000L;
    /** Above this many resting orders a session cancels instead of adding more. */
    private static final int MAX_RESTING = 2000;

    private final List<Client> clients = new ArrayList<>();
    private volatile boolean stopRequested;
    private final FixDecoder decoder = new FixDecoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);
    private final FixEncoder encoder = new FixEncoder(scratch);
    private final ByteBuffer scratchView = ByteBuffer.wrap(scratch.byteArray());
    private final Histogram histogram = new Histogram(3_600_000_000_000L, 3);
    private final byte[] target;
    private final byte[] password;
    private final String[] symbols;
    private final byte[][] symbolBytes;
    private final long[] mids;
    private final SplittableRandom random;
    private final int warmup;

    // per request, by ClOrdID (= request number, from 1)
    private long[] sentAt;
    private boolean[] answered;
    private long sent;
    /** ClOrdID = base + request number, so runs against the same exchange never reuse an id. */
    private final long idBase = (System.currentTimeMillis() / 1000 % 1_000_000_000L) * 1_000_000_000L;
    private long answers;
    private long trades;
    private long rejects;
    private long cancelRejects;
    private long lastAnswerNanos;
    private final TreeMap<String, Long> rejectTexts = new TreeMap<>();

    /** What the command line asks for; count is -1 when the run is timed by duration. */
    private record Settings(String host, int port, int sessions, boolean pingpong, double rate, double duration, long count,
                            String[] symbols, long[] mids, String prefix, String target, String password, int warmup, Path hgrm,
                            long seed, boolean quiet, Path dataDir, Path tlsTrust) {
    }

    /** One FIX connection and the orders it has resting. */
    private static final class Client {
        final String sender;
        final byte[] senderBytes;
        SocketChannel channel;
        /** Null over plain TCP. */
        TlsChannel tls;
        final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
        final UnsafeBuffer inBuffer = new UnsafeBuffer(in);
        final ByteBuffer out = ByteBuffer.allocateDirect(8 << 20);
        int nextSeq = 1;
        boolean loggedOn;
        boolean loggedOut;
        boolean logoutSent;
        final LongArrayList resting = new LongArrayList();
        final Long2LongHashMap restingAt = new Long2LongHashMap(-1);
        /** side (1/2) and symbol index of every order we know, by ClOrdID. */
        final Long2LongHashMap orderInfo = new Long2LongHashMap(-1);

        Client(final String sender) {
            this.sender = sender;
            this.senderBytes = sender.getBytes(StandardCharsets.US_ASCII);
        }

        void addResting(final long id) {
            if (restingAt.get(id) < 0) {
                restingAt.put(id, resting.size());
                resting.addLong(id);
            }
        }

        void removeResting(final long id) {
            final long at = restingAt.remove(id);
            if (at >= 0) {
                final long last = resting.removeAt(resting.size() - 1);
                if (last != id) {
                    resting.setLong((int) at, last);
                    restingAt.put(last, at);
                }
            }
        }
    }

    private LoadGenMain(final String target, final String password, final String[] symbols, final long[] mids, final long seed,
                        final int warmup) {
        this.target = target.getBytes(StandardCharsets.US_ASCII);
        this.password = password == null ? null : password.getBytes(StandardCharsets.US_ASCII);
        this.symbols = symbols;
        this.symbolBytes = new byte[symbols.length][];
        for (int i = 0; i < symbols.length; i++) {
            symbolBytes[i] = symbols[i].getBytes(StandardCharsets.US_ASCII);
        }
        this.mids = mids;
        this.random = new SplittableRandom(seed);
        this.warmup = warmup;
    }

    public static void main(final String[] argv) {
        Tool.run("loadgen", USAGE, () -> run(parse(argv), argv));
    }

    private static Settings parse(final String[] argv) {
        final Args args = Args.parse(argv, Set.of("--host", "--port", "--sessions", "--rate", "--duration", "--count", "--mode",
            "--symbols", "--sender-prefix", "--target", "--password", "--warmup", "--hgrm", "--seed", "--data-dir",
            "--tls-trust"), Set.of("--quiet"), 0);
        args.required("--port", null); // no default: a load generator aimed at a guessed port measures nothing
        final int port = args.intNumber("--port", -1, 1, 65535);
        final int sessions = args.intNumber("--sessions", 1, 1, 1000);
        final double rate = args.number("--rate", 10_000, 1, 10_000_000);
        final double duration = args.number("--duration", 10, 1, 86_400);
        final long count = args.number("--count", -1, 1, 1_000_000_000);
        final boolean pingpong = args.choice("--mode", "rate", "rate", "pingpong").equals("pingpong");
        final String[] parts = args.string("--symbols", "ACME=100.00").split(",");
        final String[] names = new String[parts.length];
        final long[] mids = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            final String[] kv = parts[i].split("=", 2);
            names[i] = kv[0].trim();
            try {
                mids[i] = kv.length == 2 ? new java.math.BigDecimal(kv[1].trim()).movePointRight(2).longValueExact() : 10_000;
            } catch (final ArithmeticException | NumberFormatException e) {
                throw new Args.UsageException("--symbols: '" + parts[i] + "' needs a mid price with at most 2 decimals, e.g. ACME=100.00");
            }
            if (names[i].isEmpty() || mids[i] <= 100) {
                throw new Args.UsageException("--symbols: '" + parts[i] + "' needs a name and a mid above 1.00");
            }
        }
        return new Settings(args.string("--host", "127.0.0.1"), port, sessions, pingpong, rate, duration, count, names, mids,
            args.string("--sender-prefix", "LOAD"), args.string("--target", "CHRONEX"), args.string("--password", null),
            args.intNumber("--warmup", 1000, 0, 100_000_000), OutputFile.option(args, "--hgrm"),
            args.number("--seed", 42, 0, Long.MAX_VALUE), args.flag("--quiet"), args.path("--data-dir", null),
            args.string("--tls-trust", null) == null ? null : args.readableFile("--tls-trust", "gateway.crt"));
    }

    /** Runs the load; with --data-dir, also writes DIR/loadgen.pid while running and the results to DIR/loadgen.log. */
    private static int run(final Settings settings, final String[] argv) throws IOException {
        final LoadGenMain gen = new LoadGenMain(settings.target(), settings.password(), settings.symbols(), settings.mids(),
            settings.seed(), settings.warmup());
        for (int i = 1; i <= settings.sessions(); i++) {
            gen.clients.add(new Client(settings.prefix() + i));
        }
        // SIGTERM or Ctrl-C: stop sending, wait for the answers, log out and print the results.
        DutyCycle.onShutdownSignal("loadgen-stop", () -> gen.stopRequested = true);
        if (settings.dataDir() == null) {
            gen.run(settings);
            return 0;
        }
        final RunFiles run;
        try {
            run = RunFiles.start(settings.dataDir(), "loadgen");
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        run.log("loadgen started: %s", String.join(" ", argv));
        final ByteArrayOutputStream results = new ByteArrayOutputStream();
        final PrintStream console = System.out;
        // The results go to the console and, once the run is over, into DIR/loadgen.log.
        System.setOut(new PrintStream(new OutputStream() {
            @Override
            public void write(final int b) {
                console.write(b);
                results.write(b);
            }

            @Override
            public void write(final byte[] b, final int off, final int len) {
                console.write(b, off, len);
                results.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
        try {
            gen.run(settings);
        } finally {
            System.out.flush();
            System.setOut(console);
            for (final String line : results.toString(StandardCharsets.UTF_8).split("\n")) {
                run.logToFile(line);
            }
            run.stop();
        }
        return 0;
    }

    /**
     * Logs every session on, sends until the count or the duration is reached (or a stop signal), waits for the answers, logs out,
     * reports.
     */
    private void run(final Settings settings) throws IOException {
        final long capacity = settings.count() > 0 ? settings.count() : (long) Math.ceil(settings.rate() * settings.duration());
        final int slots = (int) Math.min(Integer.MAX_VALUE - 8, (settings.pingpong() && settings.count() < 0 ? 50_000_000 : capacity) + 2);
        sentAt = new long[slots];
        answered = new boolean[slots];
        logOn(settings.host(), settings.port(), settings.tlsTrust());
        final long start = System.nanoTime();
        sendLoad(settings, start);
        final long sendingEnded = System.nanoTime();
        drainAndLogOut();
        report(settings.pingpong(), settings.rate(), start, sendingEnded, settings.hgrm());
    }

    private void logOn(final String host, final int port, final Path tlsTrust) throws IOException {
        for (final Client c : clients) {
            c.channel = SocketChannel.open();
            try {
                c.channel.connect(new InetSocketAddress(host, port));
            } catch (final IOException e) {
                throw new Tool.Failure("cannot connect to " + host + ":" + port + ": " + e.getMessage());
            }
            c.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.channel.configureBlocking(false);
            if (tlsTrust != null) {
                try {
                    final SSLEngine engine = TlsIdentity.clientEngine(tlsTrust, host, port);
                    c.tls = TlsChannel.sizedFor(engine);
                    c.tls.attach(engine);
                } catch (final TlsIdentity.TlsException e) {
                    throw new Args.UsageException("--tls-trust: " + e.getMessage());
                }
            }
            final FixEncoder e = header(c, FixMsgTypes.LOGON);
            e.addLong(FixTags.ENCRYPT_METHOD, 0);
            e.addLong(FixTags.HEART_BT_INT, 30);
            e.addBoolean(FixTags.RESET_SEQ_NUM_FLAG, true);
            if (password != null) {
                e.addAscii(FixTags.PASSWORD, password);
            }
            send(c);
        }
        final long logonDeadline = System.nanoTime() + 10 * SECOND;
        while (!allLoggedOn()) {
            poll();
            if (System.nanoTime() > logonDeadline) {
                for (final Client c : clients) {
                    if (!c.loggedOn) {
                        throw new Tool.Failure("session " + c.sender
                            + " did not log on within 10 s (is it configured in the gateway's sessions?)");
                    }
                }
            }
        }
    }

    /**
     * Sends at the constant rate (every request due goes out at once) or ping-pong, until the count
     * or the duration is reached or a stop is requested; a progress line a second unless quiet.
     */
    private void sendLoad(final Settings settings, final long start) throws IOException {
        final boolean pingpong = settings.pingpong();
        final long count = settings.count();
        final boolean quiet = settings.quiet();
        final PrintStream err = System.err;
        final long end = count > 0 ? Long.MAX_VALUE : start + (long) (settings.duration() * SECOND);
        final double interval = SECOND / settings.rate();
        long nextProgress = start + SECOND;
        long lastSent = 0;
        long lastAnswers = 0;
        int idle = 0;
        while (true) {
            final long now = System.nanoTime();
            boolean more = !stopRequested && (count > 0 ? sent < count : now < end);
            if (more && sent + 1 >= sentAt.length) {
                more = false;
            }
            if (!more) {
                break;
            }
            int work = poll();
            if (pingpong) {
                if (sent == answers) {
                    request(System.nanoTime(), System.nanoTime());
                    work++;
                }
            } else {
                // Everything due goes out now, in one write per session.
                for (int burst = 0; burst < 512 && (count <= 0 || sent < count) && sent + 1 < sentAt.length; burst++) {
                    final long intended = start + (long) (sent * interval);
                    if (now < intended) {
                        break;
                    }
                    request(intended, now);
                    work++;
                }
            }
            flushAll();
            if (now >= nextProgress && !quiet) {
                err.printf(Locale.ROOT, "loadgen: %4.0f s  sent %,d (%,d/s)  answers %,d (%,d/s)  trades %,d  rejects %,d%n",
                    (now - start) / 1e9, sent, sent - lastSent, answers, answers - lastAnswers, trades, rejects);
                lastSent = sent;
                lastAnswers = answers;
                nextProgress += SECOND;
            }
            idle = work > 0 ? 0 : idle + 1;
            // Ping-pong spins (a park costs ~50 us here, which would be measured as round trip);
            // rate mode parks when idle so it leaves the exchange its CPUs between sends.
            if (pingpong) {
                Thread.onSpinWait();
            } else if (idle > 1000) {
                LockSupport.parkNanos(10_000);
            }
        }
    }

    /** Waits up to 10 s for the answers still due, then logs every session out (up to 2 s) and closes the connections. */
    private void drainAndLogOut() throws IOException {
        final long drainDeadline = System.nanoTime() + 10 * SECOND;
        while (answers < sent && System.nanoTime() < drainDeadline) {
            if (poll() == 0) {
                LockSupport.parkNanos(10_000);
            }
        }
        for (final Client c : clients) {
            header(c, FixMsgTypes.LOGOUT);
            send(c);
            c.logoutSent = true;
        }
        final long logoutDeadline = System.nanoTime() + 2 * SECOND;
        while (!allLoggedOut() && System.nanoTime() < logoutDeadline) {
            if (poll() == 0) {
                LockSupport.parkNanos(100_000);
            }
        }
        for (final Client c : clients) {
            c.channel.close();
        }
    }

    private void report(final boolean pingpong, final double rate, final long start, final long sendingEnded, final Path hgrm)
        throws IOException {
        final double seconds = Math.max(1e-9, (Math.max(lastAnswerNanos, sendingEnded) - start) / 1e9);
        final double throughput = answers / seconds;
        final PrintStream out = System.out;
        out.printf(Locale.ROOT, "loadgen: %s, %d session(s), %.1f s: %,d requests sent, %,d answered (%,.0f answers/s)%s%n",
            pingpong ? "ping-pong" : String.format(Locale.ROOT, "rate %,.0f/s", rate), clients.size(), seconds, sent, answers,
            throughput, answers < sent ? String.format(Locale.ROOT, "; %,d NOT ANSWERED", sent - answers) : "");
        out.printf(Locale.ROOT, "answers: %,d trades (ExecType F) on our orders, %,d orders rejected, %,d cancel/replace rejects%n",
            trades, rejects, cancelRejects);
        rejectTexts.forEach((text, n) -> out.printf(Locale.ROOT, "  rejected %,d x: %s%n", n, text));
        final Histogram h = histogram;
        out.printf(Locale.ROOT, "round trip, us (%s; %,d samples after %,d warm-up):%n",
            pingpong ? "send to first answer" : "intended send time to first answer, coordinated omission corrected",
            h.getTotalCount(), Math.min(warmup, answers));
        out.printf(Locale.ROOT, "  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  max %.1f  mean %.1f%n",
            us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(90)), us(h.getValueAtPercentile(99)),
            us(h.getValueAtPercentile(99.9)), us(h.getValueAtPercentile(99.99)), us(h.getMaxValue()), h.getMean() / 1e3);
        if (hgrm != null) {
            try (PrintStream file = new PrintStream(Files.newOutputStream(hgrm), true, StandardCharsets.UTF_8)) {
                h.outputPercentileDistribution(file, 1000.0);
            }
            out.println("round-trip distribution written to " + hgrm + " (microseconds)");
        }
        out.printf(Locale.ROOT, "RESULT sent=%d answers=%d trades=%d rejects=%d throughput=%.0f p50_us=%.1f p99_us=%.1f max_us=%.1f%n",
            sent, answers, trades, rejects + cancelRejects, throughput, us(h.getValueAtPercentile(50)),
            us(h.getValueAtPercentile(99)), us(h.getMaxValue()));
    }

    private static double us(final long nanos) {
        return nanos / 1e3;
    }

    // ------------------------------------------------------------------ sending

    /** The next request: a new order, a cancel or a replace, on the next session in turn. */
    private void request(final long intendedNanos, final long nowNanos) throws IOException {
        final long id = ++sent;
        sentAt[(int) id] = intendedNanos;
        final Client c = clients.get((int) (id % clients.size()));
        final int dice = random.nextInt(100);
        if (c.resting.size() > MAX_RESTING && dice < 75) {
            // Keep each session's resting orders bounded, as a real participant would.
            cancel(c, id);
        } else if (dice < 60 || c.resting.isEmpty() && dice >= 75) {
            newOrder(c, id, false);
        } else if (dice < 75) {
            newOrder(c, id, true);
        } else if (dice < 90) {
            cancel(c, id);
        } else {
            replace(c, id);
        }
    }

    private void cancel(final Client c, final long id) throws IOException {
        final long targetId = c.resting.getLong(random.nextInt(c.resting.size()));
        c.removeResting(targetId);
        final long info = c.orderInfo.get(targetId);
        final FixEncoder e = header(c, FixMsgTypes.ORDER_CANCEL_REQUEST);
        e.addLong(FixTags.ORIG_CL_ORD_ID, idBase + targetId);
        e.addLong(FixTags.CL_ORD_ID, idBase + id);
        e.addChar(FixTags.SIDE, (char) ('0' + (info & 3)));
        e.addAscii(FixTags.SYMBOL, symbolBytes[(int) (info >>> 2)]);
        e.addUtcTimestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis());
        // Reports still in flight for the target must not make it look resting again.
        c.orderInfo.remove(targetId);
        c.orderInfo.put(id, info);
        send(c);
    }

    private void replace(final Client c, final long id) throws IOException {
        final long targetId = c.resting.getLong(random.nextInt(c.resting.size()));
        c.removeResting(targetId);
        final long info = c.orderInfo.get(targetId);
        final int symbol = (int) (info >>> 2);
        final boolean buy = (info & 3) == 1;
        final FixEncoder e = header(c, FixMsgTypes.ORDER_CANCEL_REPLACE_REQUEST);
        e.addLong(FixTags.ORIG_CL_ORD_ID, idBase + targetId);
        e.addLong(FixTags.CL_ORD_ID, idBase + id);
        e.addChar(FixTags.SIDE, buy ? '1' : '2');
        e.addAscii(FixTags.SYMBOL, symbolBytes[symbol]);
        e.addLong(FixTags.ORDER_QTY, 1 + random.nextInt(100));
        e.addChar(FixTags.ORD_TYPE, '2');
        e.addDecimal(FixTags.PRICE, passivePrice(symbol, buy), 2);
        e.addUtcTimestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis());
        c.orderInfo.remove(targetId);
        c.orderInfo.put(id, info);
        send(c);
    }

    private void newOrder(final Client c, final long id, final boolean aggressive) throws IOException {
        final int symbol = random.nextInt(symbols.length);
        final boolean buy = random.nextBoolean();
        final long price = aggressive ? mids[symbol] + (buy ? 1 : -1) * random.nextInt(6) : passivePrice(symbol, buy);
        final FixEncoder e = header(c, FixMsgTypes.NEW_ORDER_SINGLE);
        e.addLong(FixTags.CL_ORD_ID, idBase + id);
        e.addAscii(FixTags.SYMBOL, symbolBytes[symbol]);
        e.addChar(FixTags.SIDE, buy ? '1' : '2');
        e.addUtcTimestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis());
        e.addLong(FixTags.ORDER_QTY, 1 + random.nextInt(100));
        e.addChar(FixTags.ORD_TYPE, '2');
        e.addDecimal(FixTags.PRICE, price, 2);
        e.addChar(FixTags.TIME_IN_FORCE, aggressive && random.nextBoolean() ? '3' : '1');
        c.orderInfo.put(id, (long) symbol << 2 | (buy ? 1 : 2));
        send(c);
    }

    private long passivePrice(final int symbol, final boolean buy) {
        final long offset = 1 + random.nextInt(20);
        return buy ? mids[symbol] - offset : mids[symbol] + offset;
    }

    private FixEncoder header(final Client c, final int msgType) {
        encoder.start(0, msgType);
        encoder.addAscii(FixTags.SENDER_COMP_ID, c.senderBytes);
        encoder.addAscii(FixTags.TARGET_COMP_ID, target);
        encoder.addLong(FixTags.MSG_SEQ_NUM, c.nextSeq++);
        encoder.addUtcTimestamp(FixTags.SENDING_TIME, System.currentTimeMillis());
        return encoder;
    }

    /** Queues the message just encoded; {@link #flushAll} writes each session's queue in one call. */
    private void send(final Client c) throws IOException {
        final int length = encoder.finish();
        scratchView.limit(encoder.messageOffset() + length).position(encoder.messageOffset());
        if (scratchView.remaining() > c.out.remaining()) {
            flush(c);
            if (scratchView.remaining() > c.out.remaining()) {
                throw new Tool.Failure("session " + c.sender + ": the gateway stopped reading (8 MiB of requests waiting)");
            }
        }
        c.out.put(scratchView);
    }

    private void flushAll() throws IOException {
        for (int i = 0; i < clients.size(); i++) {
            flush(clients.get(i));
        }
    }

    private void flush(final Client c) throws IOException {
        if (c.out.position() > 0 || c.tls != null && c.tls.hasOutput()) {
            c.out.flip();
            if (c.tls == null) {
                c.channel.write(c.out);
            } else {
                c.tls.write(c.channel, c.out);
            }
            c.out.compact();
        }
    }

    // ------------------------------------------------------------------ receiving

    private int poll() throws IOException {
        int work = 0;
        for (int i = 0; i < clients.size(); i++) {
            final Client c = clients.get(i);
            flush(c);
            final int n;
            try {
                n = c.tls == null ? c.channel.read(c.in) : c.tls.read(c.channel, c.in);
            } catch (final SSLException e) {
                throw new Tool.Failure("session " + c.sender + ": " + TlsChannel.reason(e));
            }
            if (n < 0) {
                if (c.logoutSent) {
                    c.loggedOut = true;
                } else if (!c.loggedOut) {
                    throw new Tool.Failure("session " + c.sender + ": the gateway closed the connection");
                }
                continue;
            }
            if (n == 0) {
                continue;
            }
            work++;
            final long now = System.nanoTime();
            final int limit = c.in.position();
            int position = 0;
            while (position < limit) {
                final int length = FixDecoder.frame(c.inBuffer, position, limit - position, 1 << 20);
                if (length == 0) {
                    break;
                }
                if (length < 0) {
                    throw new Tool.Failure("session " + c.sender + ": the gateway sent bytes that are not FIX");
                }
                onMessage(c, position, length, now);
                position += length;
            }
            c.inBuffer.putBytes(0, c.inBuffer, position, limit - position);
            c.in.position(limit - position);
        }
        return work;
    }

    private void onMessage(final Client c, final int offset, final int length, final long now) throws IOException {
        if (decoder.decode(c.inBuffer, offset, length) != FixDecoder.OK) {
            throw new Tool.Failure("session " + c.sender + ": malformed message from the gateway: " + decoder.rejectText());
        }
        switch (decoder.msgType()) {
            case FixMsgTypes.LOGON -> c.loggedOn = true;
            case FixMsgTypes.LOGOUT -> {
                if (!c.loggedOn || sent == 0) {
                    throw new Tool.Failure("session " + c.sender + " logged out by the gateway: " + decoder.stringValue(FixTags.TEXT));
                }
                c.loggedOut = true;
            }
            case FixMsgTypes.TEST_REQUEST -> {
                final FixEncoder e = header(c, FixMsgTypes.HEARTBEAT);
                e.addBytes(FixTags.TEST_REQ_ID, decoder.buffer(), decoder.valueOffset(FixTags.TEST_REQ_ID),
                    decoder.valueLength(FixTags.TEST_REQ_ID));
                send(c);
            }
            case FixMsgTypes.REJECT -> throw new Tool.Failure("session " + c.sender + ": session-level Reject from the gateway: "
                + decoder.stringValue(FixTags.TEXT));
            case FixMsgTypes.BUSINESS_MESSAGE_REJECT -> {
                rejects++;
                count(decoder.stringValue(FixTags.TEXT));
            }
            case FixMsgTypes.EXECUTION_REPORT -> executionReport(c, now);
            case FixMsgTypes.ORDER_CANCEL_REJECT -> {
                cancelRejects++;
                answer(decoder.longValue(FixTags.CL_ORD_ID) - idBase, now);
            }
            default -> {
            }
        }
    }

    private void executionReport(final Client c, final long now) {
        final long id = decoder.longValue(FixTags.CL_ORD_ID) - idBase;
        final char execType = decoder.charValue(FixTags.EXEC_TYPE);
        final char status = decoder.charValue(FixTags.ORD_STATUS);
        if (execType == 'F') {
            trades++;
        } else if (execType == '8') {
            rejects++;
            count(decoder.stringValue(FixTags.TEXT));
        }
        if (status == '0' || status == '1') {
            if (c.orderInfo.containsKey(id)) {
                c.addResting(id);
            }
        } else {
            c.removeResting(id);
            if (status != '8') {
                c.orderInfo.remove(id);
            }
        }
        answer(id, now);
    }

    private void answer(final long id, final long now) {
        if (id <= 0 || id >= sentAt.length || answered[(int) id] || sentAt[(int) id] == 0) {
            return;
        }
        answered[(int) id] = true;
        answers++;
        lastAnswerNanos = now;
        if (answers > warmup) {
            histogram.recordValue(Math.max(0, now - sentAt[(int) id]));
        }
    }

    private void count(final String text) {
        rejectTexts.merge(text == null ? "(no text)" : text, 1L, Long::sum);
    }

    private boolean allLoggedOn() {
        for (final Client c : clients) {
            if (!c.loggedOn) {
                return false;
            }
        }
        return true;
    }

    private boolean allLoggedOut() {
        for (final Client c : clients) {
            if (!c.loggedOut) {
                return false;
            }
        }
        return true;
    }
}
