package io.chronex.bench;

import io.chronex.runtime.Args;
import io.chronex.runtime.StopSignal;
import io.chronex.runtime.Tool;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.SocketAcceptor;
import quickfix.field.AvgPx;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.LeavesQty;
import quickfix.field.MsgType;
import quickfix.field.OrdStatus;
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.fix44.ExecutionReport;

import java.util.Set;

/**
 * The baseline of the FIX round-trip benchmark: a QuickFIX/J 2.3.2 acceptor that answers every
 * NewOrderSingle, cancel and replace with an ExecutionReport at once and matches nothing. Sessions
 * PREFIX1..PREFIXN to CHRONEX, messages kept in memory, no logs. Run by bin/bench-fix.
 */
public final class QuickFixEchoAcceptor implements Application {
    static final String USAGE = "Usage: QuickFixEchoAcceptor PORT SESSIONS [SENDER_PREFIX]\n";

    private long execIds;

    public static void main(final String[] argv) {
        Tool.run("bench-fix", USAGE, () -> {
            final Args args = Args.parse(argv, Set.of(), Set.of(), 3);
            final int port = (int) args.operandNumber(0, "PORT", 1, 65535);
            final int sessions = (int) args.operandNumber(1, "SESSIONS", 1, 10_000);
            serve(port, sessions, args.operandOr(2, "LOAD"));
            return 0;
        });
    }

    /** Accepts sessions PREFIX1..PREFIXN on the port until SIGTERM or Ctrl-C. */
    private static void serve(final int port, final int sessions, final String prefix) throws ConfigError {
        final SessionSettings settings = new SessionSettings();
        for (int i = 1; i <= sessions; i++) {
            final SessionID id = new SessionID("FIX.4.4", "CHRONEX", prefix + i);
            settings.setString(id, "ConnectionType", "acceptor");
            settings.setLong(id, "SocketAcceptPort", port);
            settings.setString(id, "SocketAcceptAddress", "127.0.0.1");
            settings.setString(id, "StartTime", "00:00:00");
            settings.setString(id, "EndTime", "00:00:00");
            settings.setBool(id, "UseDataDictionary", true);
            settings.setBool(id, "SocketTcpNoDelay", true);
        }
        final SocketAcceptor acceptor = new SocketAcceptor(new QuickFixEchoAcceptor(), new MemoryStoreFactory(), settings,
            new ScreenLogFactory(false, false, false, false), new DefaultMessageFactory());
        // Before the line bin/bench-fix waits for: from then on SIGTERM stops the acceptor and exits 0.
        final StopSignal stop = StopSignal.register();
        acceptor.start();
        System.out.println("QuickFIX/J echo acceptor listening on 127.0.0.1:" + port);
        stop.await();
        acceptor.stop(true);
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionId) throws FieldNotFound {
        final String type = message.getHeader().getString(MsgType.FIELD);
        final char execType;
        final char status;
        switch (type) {
            case MsgType.ORDER_SINGLE -> {
                execType = ExecType.NEW;
                status = OrdStatus.NEW;
            }
            case MsgType.ORDER_CANCEL_REQUEST -> {
                execType = ExecType.CANCELED;
                status = OrdStatus.CANCELED;
            }
            case MsgType.ORDER_CANCEL_REPLACE_REQUEST -> {
                execType = ExecType.REPLACED;
                status = OrdStatus.NEW;
            }
            default -> {
                return;
            }
        }
        final double qty = message.isSetField(OrderQty.FIELD) ? message.getDouble(OrderQty.FIELD) : 0;
        final ExecutionReport report = new ExecutionReport(new OrderID("E" + (++execIds)), new ExecID("X" + execIds),
            new ExecType(execType), new OrdStatus(status), new Side(message.getChar(Side.FIELD)), new LeavesQty(qty), new CumQty(0),
            new AvgPx(0));
        report.set(new ClOrdID(message.getString(ClOrdID.FIELD)));
        if (message.isSetField(OrigClOrdID.FIELD)) {
            report.set(new OrigClOrdID(message.getString(OrigClOrdID.FIELD)));
        }
        report.set(new Symbol(message.getString(Symbol.FIELD)));
        report.set(new OrderQty(qty));
        try {
            Session.sendToTarget(report, sessionId);
        } catch (final SessionNotFound e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void onCreate(final SessionID sessionId) {
    }

    @Override
    public void onLogon(final SessionID sessionId) {
    }

    @Override
    public void onLogout(final SessionID sessionId) {
    }

    @Override
    public void toAdmin(final Message message, final SessionID sessionId) {
    }

    @Override
    public void fromAdmin(final Message message, final SessionID sessionId) {
    }

    @Override
    public void toApp(final Message message, final SessionID sessionId) {
    }
}
