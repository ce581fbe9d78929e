package io.chronex.engine.cluster;

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
import quickfix.field.LastPx;
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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A QuickFIX/J 2.3.2 initiator for one session of the gateway under test, as the cluster's clients run it: sequence
 * numbers in memory for the object's life (across the gateway's restarts, so QuickFIX/J resends what the gateway never
 * read), reconnecting every second by itself. Every ExecutionReport it is handed is recorded, in order.
 */
final class FixClient implements Application, AutoCloseable {
    /** One ExecutionReport as the application got it. */
    record Report(String clOrdId, String execId, char execType, String lastPx, String text) {
    }

    final SessionID sessionId;
    private final SocketInitiator initiator;
    private final List<Report> reports = new CopyOnWriteArrayList<>();
    final List<String> events = new CopyOnWriteArrayList<>();
    private volatile boolean loggedOn;

    FixClient(final String sender, final int port) throws Exception {
        this(sender, "127.0.0.1", port);
    }

    FixClient(final String sender, final String host, final int port) throws Exception {
        sessionId = new SessionID("FIX.4.4", sender, "CHRONEX");
        final SessionSettings settings = new SessionSettings();
        settings.setString(sessionId, "ConnectionType", "initiator");
        settings.setString(sessionId, "SocketConnectHost", host);
        settings.setLong(sessionId, "SocketConnectPort", port);
        settings.setLong(sessionId, "HeartBtInt", 30);
        settings.setLong(sessionId, "ReconnectInterval", 1);
        settings.setString(sessionId, "StartTime", "00:00:00");
        settings.setString(sessionId, "EndTime", "00:00:00");
        settings.setBool(sessionId, "UseDataDictionary", true);
        settings.setBool(sessionId, "ResetOnLogon", false);
        settings.setBool(sessionId, "ValidateUserDefinedFields", false);
        initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings, new ScreenLogFactory(false, false, false, false),
            new DefaultMessageFactory());
        initiator.start();
    }

    boolean loggedOn() {
        return loggedOn;
    }

    /**
     * A limit order of one lot in ACME, good till cancelled. Sent at once when logged on; otherwise QuickFIX/J numbers and
     * stores it, and the gateway asks for it (ResendRequest) at the next logon.
     */
    void sendLimit(final String clOrdId, final char side, final String price) {
        final NewOrderSingle o = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side), new TransactTime(), new OrdType(OrdType.LIMIT));
        o.set(new Symbol("ACME"));
        o.setString(OrderQty.FIELD, "1");
        o.setString(Price.FIELD, price);
        o.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        Session.lookupSession(sessionId).send(o);
    }

    /** Every ExecutionReport received so far, in order. */
    List<Report> reports() {
        return new ArrayList<>(reports);
    }

    /** How many ExecutionReports of type {@code execType} name each ClOrdID. */
    Map<String, Integer> countByClOrdId(final char execType) {
        final Map<String, Integer> counts = new HashMap<>();
        for (final Report r : reports) {
            if (r.execType() == execType) {
                counts.merge(r.clOrdId(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** ExecIDs that came more than once (none: every report is delivered once). */
    List<String> repeatedExecIds() {
        final Set<String> seen = new HashSet<>();
        final List<String> repeated = new ArrayList<>();
        for (final Report r : reports) {
            if (!seen.add(r.execId())) {
                repeated.add(r.execId());
            }
        }
        return repeated;
    }

    @Override
    public void onCreate(final SessionID id) {
    }

    @Override
    public void onLogon(final SessionID id) {
        loggedOn = true;
        events.add("logon");
    }

    @Override
    public void onLogout(final SessionID id) {
        loggedOn = false;
        events.add("logout");
    }

    @Override
    public void toAdmin(final Message message, final SessionID id) {
    }

    @Override
    public void fromAdmin(final Message message, final SessionID id) {
        try {
            final String type = message.getHeader().getString(MsgType.FIELD);
            if (type.equals(MsgType.REJECT) || type.equals(MsgType.LOGOUT)) {
                events.add(type + (message.isSetField(Text.FIELD) ? " " + message.getString(Text.FIELD) : ""));
            }
        } catch (final FieldNotFound ignored) {
            // every message has a MsgType
        }
    }

    @Override
    public void toApp(final Message message, final SessionID id) {
    }

    @Override
    public void fromApp(final Message message, final SessionID id) {
        try {
            if (MsgType.EXECUTION_REPORT.equals(message.getHeader().getString(MsgType.FIELD))) {
                reports.add(new Report(message.getString(ClOrdID.FIELD), message.getString(ExecID.FIELD), message.getChar(ExecType.FIELD),
                    optional(message, LastPx.FIELD), optional(message, Text.FIELD)));
            } else {
                events.add("application message " + message);
            }
        } catch (final FieldNotFound e) {
            events.add("report without " + e.field + ": " + message);
        }
    }

    private static String optional(final Message message, final int field) throws FieldNotFound {
        return message.isSetField(field) ? message.getString(field) : "";
    }

    @Override
    public void close() {
        initiator.stop(true);
    }
}
