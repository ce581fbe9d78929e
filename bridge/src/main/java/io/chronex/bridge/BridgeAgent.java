package io.chronex.bridge;

import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.Header;
import io.aeron.security.CredentialsSupplier;
import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.Hops;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.queues.cluster.ClusterMessages;
import io.chronex.queues.cluster.ClusterName;
import io.chronex.runtime.AeronLeftovers;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.Agent;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A gateway host's link to the cluster: forwards every command of the host's journal to the cluster's ingress
 * (its journal index as the sequence) and writes every result the cluster sends back into the host's events
 * queue, strictly in journal order, each once. Whenever its session starts or the cluster changes leader it says
 * HELLO with the last result it has; the cluster resends what it missed and says where its commands stand, and
 * forwarding resumes right after that: commands the old leader never committed are sent again, and those it did
 * are not applied twice (docs/cluster.md).
 */
public final class BridgeAgent implements Agent, EgressListener {
    private static final long HELLO_RETRY_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int FORWARD_BATCH = 64;
    private static final int EGRESS_BATCH = 256;
    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private enum State { DISCONNECTED, WAITING_WELCOME, FORWARDING }

    private final ClusterConfig cluster;
    private final int source;
    private final String egressHost;
    private final String idleName;
    private final Consumer<String> log;
    private final SingleChronicleQueue commands;
    private final SingleChronicleQueue events;
    private final ExcerptAppender eventAppender;
    private final ExcerptTailer forwardTailer;
    private final AnswerCursor answers;
    private final DutyCycle.StatusClock status = DutyCycle.StatusClock.everyMinute();
    private MediaDriver driver;
    private AeronCluster client;
    private State state = State.DISCONNECTED;
    /** The last journal index whose result the host's events queue holds. */
    private long answeredThrough;
    private long helloSentNanos;
    /** The last command whose result came from the cluster (the host's last decodable command answered); -1 for none. */
    private long clusterAnsweredThrough;
    private boolean saidForeign;
    private long lastKeepAliveNanos;
    private long nextConnectNanos;
    private String lastConnectFailure;
    /** The name the members said in their challenge during this connect (null: none said, or they name no cluster). */
    private String membersName;
    private boolean challenged;
    private boolean saidUnnamed;
    private volatile String refusal;

    private final ExpandableDirectByteBuffer send = new ExpandableDirectByteBuffer(1024);
    /** Bytes of a command read from the journal but refused by back pressure; sent again first. */
    private int pendingLength;
    private final Command command = new Command();
    private final Hops hops = new Hops();
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();

    private long forwarded;
    private long answered;
    private long answeredHere;
    private long sessions;
    private long leaderChanges;
    private long gaps;

    /**
     * A bridge for host journal {@code source} (its id in the cluster's eyes) over the host's data directory; call
     * from the thread that will run it (Chronicle keeps tailers and appenders with one thread).
     */
    public BridgeAgent(final ClusterConfig cluster, final int source, final DataDirectory data, final String egressHost,
                       final String idleName, final Consumer<String> log) {
        this.cluster = cluster;
        this.source = source;
        this.egressHost = egressHost;
        this.idleName = idleName;
        this.log = log;
        this.commands = data.commands();
        this.events = data.events();
        this.answeredThrough = EventTail.lastAnswered(events);
        this.eventAppender = events.createAppender();
        this.forwardTailer = commands.createTailer();
        this.answers = new AnswerCursor(commands, answeredThrough);
        this.clusterAnsweredThrough = BridgeJournal.lastDecodableAtOrBefore(commands, answeredThrough);
    }

    @Override
    public void onStart() {
        final MediaDriver.Context context = new MediaDriver.Context()
            .aeronDirectoryName(cluster.aeronDirOf("bridge-" + source).toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(IdleStrategies.clusterByName(idleName))
            .termBufferSparseFile(true)
            .publicationTermBufferLength(cluster.termLength())
            .ipcTermBufferLength(cluster.termLength())
            // Not dirDeleteOnStart: that skips Aeron's check for a live driver, so a second process given the same
            // directory would wipe a running one's. Without it a stale directory (a killed process's) is replaced anyway.
            .dirDeleteOnStart(false)
            .dirDeleteOnShutdown(true);
        driver = AeronLeftovers.launchDriver(context, "bridge " + source, log);
        log.accept("bridge " + source + ": the host's events answer its journal through " + Long.toHexString(answeredThrough)
            + "; connecting to " + cluster.ingressEndpoints());
    }

    @Override
    public int doWork() {
        final long now = System.nanoTime();
        if (client == null || client.isClosed()) {
            return connect(now);
        }
        // AeronCluster polls ten fragments at a time: results are drained before more commands go out, so that on a
        // crowded box they do not queue behind the forwarding (FORWARD_BATCH commands a turn).
        int work = 0;
        int polled;
        do {
            polled = client.pollEgress();
            work += polled;
        } while (polled > 0 && work < EGRESS_BATCH && !client.isClosed());
        answerMalformed();
        if (state == State.WAITING_WELCOME && now - helloSentNanos > HELLO_RETRY_NANOS) {
            hello("no WELCOME yet");
        } else if (state == State.FORWARDING) {
            work += forward();
        }
        if (now - lastKeepAliveNanos > KEEP_ALIVE_NANOS) {
            // The cluster closes a session it has not heard from in sessionTimeoutMs; a quiet journal must not lose it.
            lastKeepAliveNanos = now;
            client.sendKeepAlive();
        }
        if (status.due()) {
            log.accept(describe());
        }
        return work;
    }

    private int connect(final long now) {
        if (client != null) {
            client = null;
            state = State.DISCONNECTED;
            log.accept("bridge " + source + ": session closed; connecting again");
        }
        if (now < nextConnectNanos) {
            return 0;
        }
        nextConnectNanos = now + RECONNECT_NANOS;
        challenged = false;
        membersName = null;
        try {
            client = AeronCluster.connect(new AeronCluster.Context()
                .credentialsSupplier(new NameCredentials())
                .aeronDirectoryName(driver.aeronDirectoryName())
                .ingressChannel("aeron:udp?term-length=" + cluster.termLength())
                .ingressEndpoints(cluster.ingressEndpoints())
                .egressChannel("aeron:udp?endpoint=" + egressHost + ":0")
                .egressListener(this)
                .errorHandler(error -> log.accept("bridge " + source + ": " + error)));
        } catch (final RuntimeException e) {
            // The member refuses after its challenge; the refusal itself may not reach us before the connect times out (seen in
            // WrongClusterTest: a timeout, not Aeron's AuthenticationException), but the challenge named another cluster already.
            if (ClusterName.compare(membersName, cluster.name()) == ClusterName.Verdict.DIFFERENT) {
                throw wrongCluster();
            }
            final String failure = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!failure.equals(lastConnectFailure)) {
                log.accept("bridge " + source + ": cannot connect to the cluster (" + failure + "); trying again every second");
                lastConnectFailure = failure;
            }
            return 0;
        }
        lastConnectFailure = null;
        if (challenged && membersName == null && !saidUnnamed) {
            log.accept("bridge " + source + ": " + cluster.file() + " names cluster '" + cluster.name() + "' but the members name none"
                + " (their cluster file has no name:): not checked");
            saidUnnamed = true;
        }
        sessions++;
        log.accept("bridge " + source + ": session " + client.clusterSessionId() + " with leader " + client.leaderMemberId());
        hello("new session");
        return 1;
    }

    /**
     * The members refused this bridge's session because its cluster file names another cluster than theirs: nothing was sent
     * and nothing written, and nothing will be (bin/bridge exits 2 with this).
     */
    private WrongCluster wrongCluster() {
        final String reason = cluster.file() + " names cluster '" + cluster.name() + "', but the members at " + cluster.ingressEndpoints()
            + " are cluster '" + membersName + "': this gateway host's journal is not theirs to apply. Nothing was sent to them and"
            + " nothing written to the host's events. Start the bridge (bin/gateway --cluster) with that cluster's file, or"
            + " correct the name in " + cluster.file();
        log.accept("bridge " + source + ": REFUSED: " + reason);
        refusal = reason;
        return new WrongCluster(reason);
    }

    /** Why the members refused this bridge for good, or null; read after the agent stopped. */
    public String refusal() {
        return refusal;
    }

    /** Why the bridge stopped for good: its cluster file describes another cluster than the one that answered. */
    public static final class WrongCluster extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WrongCluster(final String message) {
            super(message, null, false, false);
        }
    }

    /** The cluster's name from the file, and what the members say theirs is when they challenge it. */
    private final class NameCredentials implements CredentialsSupplier {
        @Override
        public byte[] encodedCredentials() {
            return ClusterName.encode(cluster.name());
        }

        @Override
        public byte[] onChallenge(final byte[] encodedChallenge) {
            challenged = true;
            membersName = ClusterName.decode(encodedChallenge);
            return ClusterName.encode(cluster.name());
        }
    }

    /** Says what the host has; forwarding waits for the WELCOME that answers it. */
    private void hello(final String why) {
        state = State.WAITING_WELCOME;
        pendingLength = 0;
        helloSentNanos = System.nanoTime();
        ClusterMessages.header(send, 0, ClusterMessages.HELLO, source, answeredThrough);
        if (client.offer(send, 0, ClusterMessages.HELLO_LENGTH) < 0) {
            helloSentNanos = 0; // tried again on the next turn of the loop
        } else if (!"new session".equals(why)) {
            log.accept("bridge " + source + ": HELLO again (" + why + ")");
        }
    }

    @Override
    public void onMessage(final long clusterSessionId, final long timestamp, final DirectBuffer buffer, final int offset,
                          final int length, final Header logHeader) {
        final byte type = ClusterMessages.type(buffer, offset, length);
        if (type == ClusterMessages.RESULT) {
            onResult(ClusterMessages.sequence(buffer, offset), buffer, offset + ClusterMessages.HEADER_LENGTH,
                length - ClusterMessages.HEADER_LENGTH);
        } else if (type == ClusterMessages.WELCOME && length >= ClusterMessages.WELCOME_LENGTH) {
            onWelcome(ClusterMessages.sequence(buffer, offset), ClusterMessages.resent(buffer, offset));
        }
    }

    private void onResult(final long sequence, final DirectBuffer buffer, final int offset, final int length) {
        if (sequence <= answeredThrough) {
            return; // already written: a resend overlapping what arrived before
        }
        answerMalformed();
        answers.refresh();
        if (!answers.present || answers.index != sequence) {
            // A result before this one never came (dropped under back pressure, or lost with a leader): ask again.
            gaps++;
            if (state != State.WAITING_WELCOME) {
                hello("a result is missing before " + Long.toHexString(sequence));
            }
            return;
        }
        try (DocumentContext dc = eventAppender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            out.ensureCapacity(out.writePosition() + length);
            for (int i = 0; i < length; i++) {
                out.writeByte(buffer.getByte(offset + i));
            }
        }
        answeredThrough = sequence;
        clusterAnsweredThrough = sequence;
        answered++;
        answers.advance();
        answerMalformed();
    }

    private void onWelcome(final long lastApplied, final long resent) {
        if (state != State.WAITING_WELCOME) {
            return;
        }
        answerMalformed();
        if (lastApplied < clusterAnsweredThrough) {
            // The host holds answers this cluster never gave: another engine's (bin/engine on this directory) or another
            // cluster's (one whose files were reset). Commands applied on a state that never saw those would be wrong answers.
            if (!saidForeign) {
                log.accept("bridge " + source + ": NOT FORWARDING: the cluster has applied this host's commands only through "
                    + Long.toHexString(lastApplied) + ", but the host's events hold its results through "
                    + Long.toHexString(clusterAnsweredThrough) + ": they came from another engine or another cluster. Give this"
                    + " host a fresh data directory (or the cluster its files back); asking again every 2 s");
                saidForeign = true;
            }
            return;
        }
        saidForeign = false;
        if (answeredThrough < lastApplied) {
            // The resend did not bring everything the cluster applied: ask once more rather than forward over a hole.
            log.accept("bridge " + source + ": the cluster applied through " + Long.toHexString(lastApplied) + " but results arrived"
                + " only through " + Long.toHexString(answeredThrough) + "; asking again");
            helloSentNanos = System.nanoTime() - HELLO_RETRY_NANOS / 2;
            return;
        }
        BridgeJournal.after(forwardTailer, Math.max(lastApplied, answeredThrough));
        state = State.FORWARDING;
        log.accept("bridge " + source + ": forwarding after " + Long.toHexString(Math.max(lastApplied, answeredThrough))
            + " (the cluster applied through " + Long.toHexString(lastApplied) + ", resent " + resent + ")");
    }

    @Override
    public void onNewLeader(final long clusterSessionId, final long leadershipTermId, final int leaderMemberId,
                            final String ingressEndpoints) {
        leaderChanges++;
        log.accept("bridge " + source + ": new leader " + leaderMemberId + " (term " + leadershipTermId + ")");
        hello("new leader");
    }

    /** Sends up to a batch of the journal's next commands; a refused one is kept and sent first next time. */
    private int forward() {
        if (pendingLength > 0) {
            if (client.offer(send, 0, pendingLength) < 0) {
                return 0;
            }
            pendingLength = 0;
            forwarded++;
        }
        int sent = 0;
        while (sent < FORWARD_BATCH) {
            final int length;
            try (DocumentContext dc = forwardTailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return sent;
                }
                final Bytes<?> in = dc.wire().bytes();
                final long at = in.readPosition();
                final int excerpt = (int) in.readRemaining();
                if (CommandCodec.read(in, command, hops) != DecodeStatus.OK) {
                    continue; // no engine can apply it: answered here, in its turn (answerMalformed)
                }
                ClusterMessages.header(send, 0, ClusterMessages.COMMAND, source, dc.index());
                send.checkLimit(ClusterMessages.HEADER_LENGTH + excerpt);
                for (int i = 0; i < excerpt; i++) {
                    send.putByte(ClusterMessages.HEADER_LENGTH + i, in.readByte(at + i));
                }
                length = ClusterMessages.HEADER_LENGTH + excerpt;
            }
            if (client.offer(send, 0, length) < 0) {
                pendingLength = length;
                return sent;
            }
            forwarded++;
            sent++;
        }
        return sent;
    }

    /** Answers, in their turn, the commands no engine can decode, as bin/engine does: rejected as malformed. */
    private void answerMalformed() {
        answers.refresh();
        while (answers.present && answers.malformed) {
            header.commandIndex = answers.index;
            copyRouting(answers.hops, header.hops);
            header.checkpoint = false;
            header.stateHash = 0;
            result.rejectMalformed();
            try (DocumentContext dc = eventAppender.writingDocument()) {
                EventCodec.write(dc.wire().bytes(), header, result);
            }
            answeredThrough = answers.index;
            answeredHere++;
            answers.advance();
        }
    }

    private static void copyRouting(final Hops from, final Hops to) {
        to.clear();
        to.gatewayId = from.gatewayId;
        to.sessionId = from.sessionId;
        to.clientSeqNum = from.clientSeqNum;
        to.gatewayReadNanos = from.gatewayReadNanos;
        to.gatewayAppendNanos = from.gatewayAppendNanos;
        to.receiptEpochNanos = from.receiptEpochNanos;
    }

    /** One status line: state, counts and where the host's answers stand. */
    public String describe() {
        return "bridge " + source + ": " + state.name().toLowerCase(java.util.Locale.ROOT) + ", answered through "
            + Long.toHexString(answeredThrough) + "; forwarded " + forwarded + ", results " + answered + ", malformed answered here "
            + answeredHere + ", sessions " + sessions + ", leader changes " + leaderChanges + ", gaps asked again " + gaps;
    }

    /** The last host journal index whose result the host's events hold. */
    public long answeredThrough() {
        return answeredThrough;
    }

    @Override
    public void onClose() {
        log.accept(describe());
        if (client != null) {
            client.close();
        }
        if (driver != null) {
            driver.close();
        }
        answers.close();
        forwardTailer.close();
        commands.close();
        events.close();
    }

    @Override
    public String roleName() {
        return "bridge-" + source;
    }
}
