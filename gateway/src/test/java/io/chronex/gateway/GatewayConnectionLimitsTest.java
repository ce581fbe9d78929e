package io.chronex.gateway;

import io.chronex.testing.Await;
import com.sun.tools.attach.VirtualMachine;
import io.chronex.testing.ChildJvm;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connections that never log on, and sessions that go silent, against a real gateway process:
 * idle sockets are evicted (per address, and the oldest when every slot is taken) so a real Logon
 * always gets in; the gateway's direct memory stays within its connection pool under the flood; a
 * gateway whose maxConnections cannot fit in the JVM's direct memory refuses to start; a silent
 * session gets a TestRequest and is then cut. Idle sockets are told apart from ones the logon
 * timeout closed by the gateway's own log line for each (the timeout here is 60 s, and no line
 * may say it fired).
 */
class GatewayConnectionLimitsTest {
    private static final int MAX_CONNECTIONS = 16;
    private static final int PER_ADDRESS = 4;
    private static final String LIMITS = "logonTimeoutSeconds: 60\nmaxConnections: " + MAX_CONNECTIONS
        + "\nmaxUnauthenticatedPerAddress: " + PER_ADDRESS + "\n";
    private static final Pattern DISCONNECTED = Pattern.compile("connection /(127\\.0\\.0\\.\\d+):(\\d+) disconnected: (.*)");

    @TempDir
    Path tmp;
    private Exchange exchange;
    private final List<Socket> idle = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (final Socket s : idle) {
            s.close();
        }
        if (exchange != null) {
            exchange.close();
        }
    }

    private void startGateway() throws Exception {
        exchange = new Exchange(tmp, "  - {senderCompId: ALICE, account: 1}\n", LIMITS);
        exchange.startGateway();
    }

    /**
     * 8 addresses x 4 idle connections, opened at once, twice the connection table: the 17th to 32nd
     * each evict the oldest idle one, and a real Logon from a 9th address evicts one more and is
     * answered. Exactly 17 evictions "every connection slot taken", each of a socket of ours that then
     * reads end-of-stream; none by the logon timeout; direct memory within the 16 connections' buffers.
     */
    @Test
    void idleConnectionsFillingEverySlotAreEvictedForARealLogon() throws Exception {
        startGateway();
        final List<String> addresses = new ArrayList<>();
        for (int a = 0; a < 8; a++) {
            for (int i = 0; i < PER_ADDRESS; i++) {
                addresses.add("127.0.0." + (10 + a));
            }
        }
        openAtOnce(addresses);
        try (FixText alice = FixText.logOn(exchange.port, "ALICE")) {
            final List<String> evicted = awaitDisconnects(MAX_CONNECTIONS * 2 + 1 - MAX_CONNECTIONS);
            for (final String why : evicted) {
                assertTrue(why.startsWith("evicted: every connection slot taken (maxConnections), this the oldest without a Logon"),
                    why + "\n" + exchange.gatewayLog());
            }
            final long used = gatewayDirectMemory();
            final long pool = MAX_CONNECTIONS * DirectMemoryBudget.perConnection(2 * 4096, 1 << 20);
            // 32 connections' buffers would be 32 MiB; the reserve covers the JDK's own (the JMX agent's, here).
            assertTrue(used > pool / 2 && used <= pool + DirectMemoryBudget.RESERVE_BYTES,
                "direct memory in use " + used + ", the connection pool's buffers " + pool);
            alice.send("5", "");
            alice.expect("5");
        }
    }

    /** 7 idle connections from one address, 4 allowed: exactly the 3 beyond the limit are evicted, saying so; a Logon gets in. */
    @Test
    void idleConnectionsBeyondThePerAddressLimitAreEvicted() throws Exception {
        startGateway();
        openAtOnce(List.of("127.0.0.20", "127.0.0.20", "127.0.0.20", "127.0.0.20", "127.0.0.20", "127.0.0.20", "127.0.0.20"));
        try (FixText alice = FixText.sendLogon(exchange.port, "ALICE", 1, true, 30)) {
            alice.expect("A");
            for (final String why : awaitDisconnects(7 - PER_ADDRESS)) {
                assertEquals("evicted: " + PER_ADDRESS + " connections from 127.0.0.20 without a Logon (maxUnauthenticatedPerAddress "
                    + PER_ADDRESS + "), this the oldest", why);
            }
        }
    }

    /** A logged-on client that goes silent gets a TestRequest after 1.2 x HeartBtInt, then is cut when it does not answer. */
    @Test
    void aSilentSessionGetsATestRequestAndIsThenDisconnected() throws Exception {
        startGateway();
        try (FixText alice = FixText.sendLogon(exchange.port, "ALICE", 1, true, 1)) {
            alice.expect("A");
            final FixText.Fields testRequest = alice.expect("1");
            assertTrue(testRequest.get(112) != null, "TestReqID: " + testRequest);
            assertTrue(alice.closedByPeer(), "cut after the unanswered TestRequest");
        }
        final String log = exchange.gatewayLog();
        assertTrue(log.contains("session ALICE disconnected: no answer to a TestRequest within 1 s"), log);
    }

    /**
     * maxConnections 64 needs 73 MiB of direct memory with the reserve: with -XX:MaxDirectMemorySize=32m the gateway says so and
     * exits 2, before it creates anything in the data directory.
     */
    @Test
    void aGatewayWhoseConnectionsCannotFitInDirectMemoryRefusesToStart() throws Exception {
        exchange = new Exchange(tmp, "  - {senderCompId: ALICE, account: 1}\n", "maxConnections: 64\n");
        final List<String> command = ChildJvm.command("256m", "-XX:+UseSerialGC", GatewayMain.class.getName(), List.of("--data-dir",
            exchange.data.toString(), "--config", exchange.gatewayConfig.toString(), "--port", "0"));
        command.add(1, "-XX:MaxDirectMemorySize=32m");
        final Path out = tmp.resolve("refused.out");
        try (ChildJvm jvms = new ChildJvm()) {
            final Process p = jvms.start(command, out);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the gateway exits");
            assertEquals(2, p.exitValue(), Files.readString(out));
        }
        final String log = Files.readString(out);
        assertTrue(log.contains("maxConnections 64 needs 73 MiB of direct memory (1032 KiB a connection, plus 8 MiB reserve) but this"
            + " JVM may use only 32 MiB"), log);
        assertFalse(Files.exists(exchange.data), "nothing created: " + exchange.data);
    }

    /** A port another process listens on: exit 2 naming the address, before the data directory is created. */
    @Test
    void aGatewayThatCannotListenRefusesToStartBeforeCreatingItsDataDirectory() throws Exception {
        exchange = new Exchange(tmp, "  - {senderCompId: ALICE, account: 1}\n");
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ChildJvm jvms = new ChildJvm()) {
            final Path out = tmp.resolve("taken.out");
            final Process p = jvms.start(GatewayMain.class.getName(), List.of("--data-dir", exchange.data.toString(), "--config",
                exchange.gatewayConfig.toString(), "--port", Integer.toString(taken.getLocalPort())), out);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the gateway exits");
            final String log = Files.readString(out);
            assertEquals(2, p.exitValue(), log);
            assertTrue(log.contains("gateway: cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": "), log);
        }
        assertFalse(Files.exists(exchange.data), "nothing created: " + exchange.data);
    }

    /**
     * A gateway whose engine file names the symbols otherwise than the configuration the engine recorded in the journal
     * (ACME and GLOBEX swapped) would route 55=ACME to GLOBEX: it exits 2 with the difference, and serves no one.
     */
    @Test
    void aGatewayWhoseEngineFileIsNotTheJournalsRefusesToStart() throws Exception {
        exchange = new Exchange(tmp, "  - {senderCompId: ALICE, account: 1}\n");
        final Path file = tmp.resolve("engine.yaml");
        final String swapped = Files.readString(file).replace("name: ACME", "name: X").replace("name: GLOBEX", "name: ACME")
            .replace("name: X", "name: GLOBEX");
        try (SingleChronicleQueue commands = DataDirectory.open(exchange.data).commands()) {
            ConfigRecord.append(commands.createAppender(), ConfigRecord.Kind.INITIAL, 1,
                EngineConfigFile.text(EngineConfigFile.parse("swapped", swapped.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        }
        try (ChildJvm jvms = new ChildJvm()) {
            final Path out = tmp.resolve("swapped.out");
            final Process p = jvms.start(GatewayMain.class.getName(), List.of("--data-dir", exchange.data.toString(), "--config",
                exchange.gatewayConfig.toString(), "--port", "0"), out);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the gateway exits");
            final String log = Files.readString(out);
            assertEquals(2, p.exitValue(), log);
            assertTrue(log.contains("gateway: " + file + " is not the configuration the journal of " + exchange.data.toAbsolutePath()
                + " records (index "), log);
            assertTrue(log.contains("  symbol GLOBEX (1): name GLOBEX -> ACME"), log);
        }
    }

    /** Connects from each address (loopback aliases) on its own thread, all at once, and keeps the sockets. */
    private void openAtOnce(final List<String> from) throws Exception {
        final ExecutorService pool = Executors.newFixedThreadPool(from.size());
        try {
            final List<Future<Socket>> sockets = new ArrayList<>();
            for (final String address : from) {
                sockets.add(pool.submit(() -> {
                    final Socket s = new Socket();
                    s.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
                    s.connect(new InetSocketAddress("127.0.0.1", exchange.port));
                    s.setSoTimeout(15_000);
                    return s;
                }));
            }
            for (final Future<Socket> f : sockets) {
                idle.add(f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waits for the gateway to have logged exactly {@code expected} disconnects of our idle sockets,
     * checks each of those sockets then reads end-of-stream and that no other idle socket was cut,
     * and returns the reasons.
     */
    private List<String> awaitDisconnects(final int expected) throws Exception {
        Await.until(expected + " idle sockets cut, by the gateway's log", 30, () -> disconnectsOfIdleSockets().size() >= expected);
        final List<String> reasons = disconnectsOfIdleSockets();
        assertEquals(expected, reasons.size(), "idle sockets the gateway cut: " + reasons + "\n" + exchange.gatewayLog());
        return reasons;
    }

    private List<String> disconnectsOfIdleSockets() throws IOException {
        final List<String> reasons = new ArrayList<>();
        final Matcher m = DISCONNECTED.matcher(exchange.gatewayLog());
        while (m.find()) {
            for (final Socket s : idle) {
                if (s.getLocalAddress().getHostAddress().equals(m.group(1)) && s.getLocalPort() == Integer.parseInt(m.group(2))) {
                    assertTrue(endOfStream(s), "the gateway logged " + m.group() + " but the socket is open");
                    reasons.add(m.group(3));
                }
            }
        }
        return reasons;
    }

    private static boolean endOfStream(final Socket s) throws IOException {
        final InputStream in = s.getInputStream();
        try {
            return in.read() < 0;
        } catch (final SocketTimeoutException e) {
            return false;
        } catch (final IOException e) {
            return true; // reset by the gateway's close
        }
    }

    /** The gateway JVM's "direct" buffer pool, read through the attach API and JMX. */
    private long gatewayDirectMemory() throws Exception {
        final String pid = Files.readString(exchange.data.resolve("gateways/1/gateway.pid")).trim();
        final VirtualMachine vm = VirtualMachine.attach(pid);
        try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()))) {
            for (final BufferPoolMXBean pool
                : ManagementFactory.getPlatformMXBeans(jmx.getMBeanServerConnection(), BufferPoolMXBean.class)) {
                if (pool.getName().equals("direct")) {
                    return pool.getMemoryUsed();
                }
            }
            throw new AssertionError("no direct buffer pool in the gateway JVM");
        } finally {
            vm.detach();
        }
    }
}
