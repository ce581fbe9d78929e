package io.chronex.gateway;

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
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.PossDupFlag;
import quickfix.field.Text;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A QuickFIX/J 2.3.2 initiator for one session, as a client of the gateway under test: what most of
 * our users run. Application messages received queue up in {@link #received}; sequence numbers are
 * kept in memory for the life of the object, across logouts.
 */
final class QfjClient implements Application, AutoCloseable {
    final SessionID sessionId;
    final BlockingQueue<Message> received = new LinkedBlockingQueue<>();
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final SocketInitiator initiator;
    private final String password;
    volatile boolean loggedOn;
    /** Added to the SendingTime (52) of every message sent from now on: a client whose clock is off. */
    volatile long sendingTimeSkewMillis;

    QfjClient(final String sender, final String password, final int port, final boolean resetOnLogon) throws Exception {
        this(sender, password, port, resetOnLogon, java.util.Map.of());
    }

    /** With QuickFIX/J session settings of the test's own (SocketUseSSL and its trust store, say). */
    QfjClient(final String sender, final String password, final int port, final boolean resetOnLogon,
              final java.util.Map<String, String> extraSettings) throws Exception {
        this.password = password;
        sessionId = new SessionID("FIX.4.4", sender, "CHRONEX");
        final SessionSettings settings = new SessionSettings();
        settings.setString(sessionId, "ConnectionType", "initiator");
        settings.setString(sessionId, "SocketConnectHost", "127.0.0.1");
        settings.setLong(sessionId, "SocketConnectPort", port);
        settings.setLong(sessionId, "HeartBtInt", 30);
        settings.setLong(sessionId, "ReconnectInterval", 1);
        settings.setString(sessionId, "StartTime", "00:00:00");
        settings.setString(sessionId, "EndTime", "00:00:00");
        settings.setBool(sessionId, "UseDataDictionary", true);
        settings.setBool(sessionId, "ResetOnLogon", resetOnLogon);
        settings.setBool(sessionId, "ValidateUserDefinedFields", false);
        extraSettings.forEach((key, value) -> settings.setString(sessionId, key, value));
        initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings, new ScreenLogFactory(false, false, false, false),
            new DefaultMessageFactory());
        initiator.start();
    }

    Session session() {
        return Session.lookupSession(sessionId);
    }

    void awaitLogon() throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!loggedOn && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        if (!loggedOn) {
            throw new AssertionError(sessionId + " did not log on; events: " + events);
        }
    }

    void send(final Message message) {
        if (!Session.lookupSession(sessionId).send(message)) {
            throw new AssertionError("QuickFIX/J did not send " + message);
        }
    }

    /** The next application message, or fails after the timeout. */
    Message next() throws InterruptedException {
        final Message m = received.poll(20, TimeUnit.SECONDS);
        if (m == null) {
            throw new AssertionError(sessionId + ": no message within 20 s; events: " + events);
        }
        return m;
    }

    static boolean possDup(final Message m) {
        try {
            return m.getHeader().isSetField(PossDupFlag.FIELD) && m.getHeader().getBoolean(PossDupFlag.FIELD);
        } catch (final FieldNotFound e) {
            return false;
        }
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
        skew(message);
        try {
            if (MsgType.REJECT.equals(message.getHeader().getString(MsgType.FIELD))) {
                // QuickFIX/J refused something we sent it (its own dictionary check): a test can look for this.
                events.add("sent Reject " + message);
            }
            if (password != null && MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD))) {
                message.setString(Password.FIELD, password);
            }
        } catch (final FieldNotFound ignored) {
            // every message has a MsgType
        }
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
        skew(message);
    }

    private void skew(final Message message) {
        final long skew = sendingTimeSkewMillis;
        if (skew != 0) {
            message.getHeader().setUtcTimeStamp(quickfix.field.SendingTime.FIELD,
                java.time.LocalDateTime.now(java.time.ZoneOffset.UTC).plusNanos(skew * 1_000_000L), true);
        }
    }

    @Override
    public void fromApp(final Message message, final SessionID id) {
        received.add(message);
    }

    void logout() throws InterruptedException {
        session().logout("test");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (loggedOn && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        initiator.stop(true);
    }
}
