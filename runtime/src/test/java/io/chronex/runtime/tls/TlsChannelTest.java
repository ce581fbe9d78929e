package io.chronex.runtime.tls;

import io.chronex.testing.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both ends of a loopback connection driven without blocking, as the gateway and the load generator drive
 * theirs: the handshake, a megabyte each way through small input buffers (records split across reads, plain
 * text waiting for room), the peer's close, and a certificate for another name refused by the client.
 */
class TlsChannelTest {
    @TempDir
    static Path dir;
    private static TestCertificates.Generated made;
    private static TlsIdentity identity;

    @BeforeAll
    static void certificate() throws Exception {
        made = TestCertificates.create(dir, 30);
        identity = TlsIdentity.fromPem(made.certificatePem(), made.privateKeyPem(), List.of());
    }

    @Test
    void aMegabyteEachWayArrivesWholeAndInOrder() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel server = listener.accept()) {
            client.configureBlocking(false);
            server.configureBlocking(false);
            final SSLEngine clientEngine = TlsIdentity.clientEngine(made.certificatePem(), "localhost", 0);
            final TlsChannel clientTls = TlsChannel.sizedFor(clientEngine);
            clientTls.attach(clientEngine);
            final SSLEngine serverEngine = identity.serverEngine();
            final TlsChannel serverTls = TlsChannel.sizedFor(serverEngine);
            serverTls.attach(serverEngine);

            final byte[] up = random(1 << 20, 1);
            final byte[] down = random(1 << 20, 2);
            final ByteBuffer upOut = ByteBuffer.wrap(up);
            final ByteBuffer downOut = ByteBuffer.wrap(down);
            // Input smaller than a record: decrypted text must wait in the channel for room, and come out whole.
            final ByteBuffer serverIn = ByteBuffer.allocate(1000);
            final ByteBuffer clientIn = ByteBuffer.allocate(3000);
            final ByteBuffer upReceived = ByteBuffer.allocate(up.length);
            final ByteBuffer downReceived = ByteBuffer.allocate(down.length);
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while ((upReceived.hasRemaining() || downReceived.hasRemaining()) && System.nanoTime() < deadline) {
                clientTls.write(client, upOut);
                serverTls.write(server, downOut);
                assertTrue(serverTls.read(server, serverIn) >= 0);
                assertTrue(clientTls.read(client, clientIn) >= 0);
                drain(serverIn, upReceived);
                drain(clientIn, downReceived);
            }
            assertTrue(clientTls.established() && serverTls.established());
            assertArrayEquals(up, upReceived.array());
            assertArrayEquals(down, downReceived.array());

            clientTls.close(client);
            int last = 0;
            while (last >= 0 && System.nanoTime() < deadline) {
                last = serverTls.read(server, serverIn);
            }
            assertEquals(-1, last, "the server sees the client's close");
        }
    }

    @Test
    void aCertificateForAnotherNameIsRefusedByTheClient() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel server = listener.accept()) {
            client.configureBlocking(false);
            server.configureBlocking(false);
            final SSLEngine clientEngine = TlsIdentity.clientEngine(made.certificatePem(), "exchange.example.com", 0);
            final TlsChannel clientTls = TlsChannel.sizedFor(clientEngine);
            clientTls.attach(clientEngine);
            final TlsChannel serverTls = TlsChannel.sizedFor(identity.serverEngine());
            serverTls.attach(identity.serverEngine());
            final ByteBuffer nothing = ByteBuffer.allocate(0);
            final ByteBuffer in = ByteBuffer.allocate(100);
            final SSLException refused = assertThrows(SSLException.class, () -> {
                final long deadline = System.nanoTime() + 30_000_000_000L;
                while (System.nanoTime() < deadline) {
                    clientTls.write(client, nothing);
                    serverTls.read(server, in);
                    serverTls.write(server, nothing);
                    clientTls.read(client, in);
                }
            });
            assertTrue(refused.getMessage().contains("exchange.example.com"), refused.getMessage());
        }
    }

    private static void drain(final ByteBuffer in, final ByteBuffer into) {
        in.flip();
        into.put(in);
        in.clear();
    }

    private static byte[] random(final int n, final long seed) {
        final byte[] b = new byte[n];
        final SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }
}
