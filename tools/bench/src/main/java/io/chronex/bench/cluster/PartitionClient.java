package io.chronex.bench.cluster;

import io.chronex.runtime.Args;
import io.chronex.runtime.StopSignal;
import io.chronex.runtime.Tool;
import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.ClOrdID;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The client of bin/check-cluster-partitions: a QuickFIX/J 2.3.2 initiator that sends resting buy orders at a steady pace
 * until told to stop, as a cluster's clients trade through its failures, then waits for their answers and writes the
 * ClOrdIDs it was told were accepted (ExecutionReport New), for the checker to find in every member's journal.
 */
public final class PartitionClient implements Application {
    static final String USAGE = """
        Usage: PartitionClient --host H --port P --sender COMPID --prefix TEXT --acknowledged FILE
                               [--pace-ms 20] [--answer-wait-s 120] [--password PW] [--answer-times FILE]

        Logs on as COMPID (to CHRONEX, ResetSeqNumFlag=Y, reconnecting every second) and sends limit buys of one
        lot of ACME at 90.00 .. 98.99 (they rest, never cross), ClOrdIDs PREFIX-1, PREFIX-2, ..., one every
        --pace-ms, until SIGTERM; then waits up to --answer-wait-s for an answer to each, writes the ClOrdIDs
        answered New to FILE, one a line, logs out and prints
          RESULT sent=N acknowledged=N unanswered=N other_reports=N repeated_exec_ids=N
        --answer-times FILE also gets the time each answer arrived (nanoseconds since the epoch), one a line, in order:
        bin/bench-failover finds the client's gap around each kill in it.
        Exit 0 when every order was answered New once and nothing else came.
        """;

    private final SessionID sessionId;
    private final String password;
    private final List<String[]> reports = new CopyOnWriteArrayList<>();
    /** When each ExecutionReport arrived, in nanoseconds since the epoch (the kills it is compared with are wall-clock times). */
    private final List<Long> arrivals = new CopyOnWriteArrayList<>();
    /** The ClOrdIDs answered so far; its monitor is what {@link #awaitAnswered} waits on. */
    private final Set<String> answeredIds = new HashSet<>();
    private volatile boolean loggedOn;

    private PartitionClient(final SessionID sessionId, final String password) {
        this.sessionId = sessionId;
        this.password = password;
    }

    public static void main(final String[] argv) {
        Tool.run("partition-client", USAGE, () -> run(argv, System.out));
    }

    private static int run(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, "--host", "--port", "--sender", "--prefix", "--acknowledged", "--pace-ms", "--answer-wait-s",
            "--password", "--answer-times");
        final String host = args.required("--host", "--host 10.240.0.2");
        final int port = args.intNumber("--port", -1, 1, 65535);
        final String sender = args.required("--sender", "--sender CAROL");
        final String prefix = args.required("--prefix", "--prefix a");
        final Path acknowledgedFile = Path.of(args.required("--acknowledged", "--acknowledged acked.txt"));
        final long pace = args.number("--pace-ms", 20, 1, 60_000);
        final long answerWait = args.number("--answer-wait-s", 120, 1, 3_600);
        if (port < 0) {
            throw new Args.UsageException("--port is required");
        }
        final SessionID id = new SessionID("FIX.4.4", sender, "CHRONEX");
        final PartitionClient client = new PartitionClient(id, args.string("--password", null));
        final SessionSettings settings = new SessionSettings();
        settings.setString(id, "ConnectionType", "initiator");
        settings.setString(id, "SocketConnectHost", host);
        settings.setLong(id, "SocketConnectPort", port);
        settings.setLong(id, "HeartBtInt", 30);
        settings.setLong(id, "ReconnectInterval", 1);
        settings.setString(id, "StartTime", "00:00:00");
        settings.setString(id, "EndTime", "00:00:00");
        settings.setBool(id, "UseDataDictionary", true);
        settings.setBool(id, "ResetOnLogon", true);
        settings.setBool(id, "ValidateUserDefinedFields", false);
        final SocketInitiator initiator = new SocketInitiator(client, new MemoryStoreFactory(), settings,
            new ScreenLogFactory(false, false, false, false), new DefaultMessageFactory());
        final StopSignal stop = StopSignal.register();
        initiator.start();
        try {
            final long logonBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!client.loggedOn && System.nanoTime() < logonBy && !stop.await(100)) {
                // waiting for the logon
            }
            if (!client.loggedOn) {
                throw new Tool.Failure("no logon at " + host + ":" + port + " as " + sender);
            }
            int sent = 0;
            do {
                sent++;
                final NewOrderSingle o = new NewOrderSingle(new ClOrdID(prefix + "-" + sent), new Side(Side.BUY), new TransactTime(),
                    new OrdType(OrdType.LIMIT));
                o.set(new Symbol("ACME"));
                o.setString(OrderQty.FIELD, "1");
                o.setString(Price.FIELD, String.format("%d.%02d", 90 + sent % 9, sent % 100));
                o.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
                Session.lookupSession(id).send(o);
            } while (!stop.await(pace));
            client.awaitAnswered(sent, TimeUnit.SECONDS.toNanos(answerWait));
            final String times = args.string("--answer-times", null);
            if (times != null) {
                Files.write(Path.of(times), client.arrivals.stream().map(String::valueOf).toList());
            }
            return client.report(sent, acknowledgedFile, out);
        } finally {
            initiator.stop(true);
        }
    }

    /** Distinct ClOrdIDs answered so far. */
    private int answered() {
        return answeredIds.size();
    }

    /** Waits until {@code count} orders are answered, woken by each answer, or until {@code nanos} have passed. */
    private void awaitAnswered(final int count, final long nanos) throws InterruptedException {
        final long deadline = System.nanoTime() + nanos;
        synchronized (answeredIds) {
            long left = nanos;
            while (answeredIds.size() < count && left > 0) {
                TimeUnit.NANOSECONDS.timedWait(answeredIds, left);
                left = deadline - System.nanoTime();
            }
        }
    }

    private int report(final int sent, final Path file, final PrintStream out) throws Exception {
        final Map<String, Integer> news = new HashMap<>();
        final Set<String> execIds = new HashSet<>();
        int other = 0;
        int repeated = 0;
        final List<String> acknowledged = new ArrayList<>();
        for (final String[] r : reports) {
            if (!execIds.add(r[1])) {
                repeated++;
            }
            if (r[2].charAt(0) == ExecType.NEW) {
                if (news.merge(r[0], 1, Integer::sum) == 1) {
                    acknowledged.add(r[0]);
                }
            } else {
                other++;
                out.println("report other than New: " + String.join(" ", r));
            }
        }
        Files.write(file, acknowledged);
        final int unanswered = sent - answered();
        out.printf("RESULT sent=%d acknowledged=%d unanswered=%d other_reports=%d repeated_exec_ids=%d%n", sent, acknowledged.size(),
            unanswered, other, repeated);
        return unanswered == 0 && other == 0 && repeated == 0 && acknowledged.size() == sent ? 0 : 1;
    }

    @Override
    public void onCreate(final SessionID id) {
    }

    @Override
    public void onLogon(final SessionID id) {
        loggedOn = true;
    }

    @Override
    public void onLogout(final SessionID id) {
        loggedOn = false;
    }

    @Override
    public void toAdmin(final Message message, final SessionID id) {
        try {
            if (password != null && MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD))) {
                message.setString(quickfix.field.Password.FIELD, password);
            }
        } catch (final FieldNotFound ignored) {
            // every message has a MsgType
        }
    }

    @Override
    public void fromAdmin(final Message message, final SessionID id) {
    }

    @Override
    public void toApp(final Message message, final SessionID id) {
    }

    @Override
    public void fromApp(final Message message, final SessionID id) {
        try {
            if (MsgType.EXECUTION_REPORT.equals(message.getHeader().getString(MsgType.FIELD))) {
                final java.time.Instant now = java.time.Instant.now();
                arrivals.add(now.getEpochSecond() * 1_000_000_000L + now.getNano());
                final String clOrdId = message.getString(ClOrdID.FIELD);
                reports.add(new String[] {clOrdId, message.getString(ExecID.FIELD), Character.toString(message.getChar(ExecType.FIELD)),
                    message.isSetField(Text.FIELD) ? message.getString(Text.FIELD) : ""});
                synchronized (answeredIds) {
                    answeredIds.add(clOrdId);
                    answeredIds.notifyAll();
                }
            }
        } catch (final FieldNotFound e) {
            reports.add(new String[] {"?", "?", "?", "report without " + e.field});
        }
    }
}
