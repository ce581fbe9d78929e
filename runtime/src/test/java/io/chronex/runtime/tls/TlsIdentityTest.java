package io.chronex.runtime.tls;

import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.testing.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TlsIdentityTest {
    @TempDir
    static Path dir;
    private static TestCertificates.Generated server;
    private static TestCertificates.Generated other;

    @BeforeAll
    static void certificates() throws Exception {
        server = TestCertificates.create(dir, 30);
        other = TestCertificates.create(dir, 30, "CN=other");
    }

    @Test
    void aKeyStoreAndPemFilesGiveTheSameIdentity() throws Exception {
        final TlsIdentity fromStore = TlsIdentity.fromKeyStore(server.keyStore(), TestCertificates.PASSWORD.toCharArray(), null,
            List.of());
        final TlsIdentity fromPem = TlsIdentity.fromPem(server.certificatePem(), server.privateKeyPem(), List.of());
        assertEquals(fromStore.certificate(), fromPem.certificate());
        assertTrue(fromStore.describe().startsWith("CN=localhost, valid until "), fromStore.describe());
        assertTrue(fromStore.describe().endsWith("TLSv1.3 TLSv1.2"), fromStore.describe());
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), List.of(fromPem.serverEngine().getEnabledProtocols()));
    }

    @Test
    void theCertificatesEndIsWarnedOfBeforeItComes() throws Exception {
        final TlsIdentity identity = TlsIdentity.fromPem(server.certificatePem(), server.privateKeyPem(), List.of());
        final java.time.Instant end = identity.certificate().getNotAfter().toInstant();
        assertEquals(null, identity.expiryWarning(end.minus(java.time.Duration.ofDays(15)), java.time.Duration.ofDays(14)));
        final String soon = identity.expiryWarning(end.minus(java.time.Duration.ofDays(2)), java.time.Duration.ofDays(14));
        assertTrue(soon.contains("CN=localhost ends at " + end + " (in 48 h): renew it and restart before then"), soon);
        final String past = identity.expiryWarning(end.plusSeconds(1), java.time.Duration.ofDays(14));
        assertTrue(past.contains("ended at " + end + ": every new connection's handshake fails"), past);
    }

    @Test
    void aWrongPasswordIsSaidSo() {
        final TlsIdentity.TlsException e = assertThrows(TlsIdentity.TlsException.class,
            () -> TlsIdentity.fromKeyStore(server.keyStore(), "wrong".toCharArray(), null, List.of()));
        assertTrue(e.getMessage().contains("cannot be read") && e.getMessage().contains("password"), e.getMessage());
    }

    @Test
    void aKeyFromAnotherPairIsRefusedAtStartNotAtEveryHandshake() {
        final TlsIdentity.TlsException e = assertThrows(TlsIdentity.TlsException.class,
            () -> TlsIdentity.fromPem(server.certificatePem(), other.privateKeyPem(), List.of()));
        assertTrue(e.getMessage().contains("the private key is not the certificate's"), e.getMessage());
    }

    @Test
    void anExpiredCertificateIsRefused() throws Exception {
        final TestCertificates.Generated expired = TestCertificates.create(dir, "CN=expired", "-10d", 2);
        final TlsIdentity.TlsException e = assertThrows(TlsIdentity.TlsException.class,
            () -> TlsIdentity.fromKeyStore(expired.keyStore(), TestCertificates.PASSWORD.toCharArray(), null, List.of()));
        assertTrue(e.getMessage().contains("not now: every client would refuse it"), e.getMessage());
    }

    @Test
    void aKeyInAnotherPemFormatIsRefusedWithHowToConvertIt() throws Exception {
        final Path rsa = dir.resolve("rsa.key");
        Files.writeString(rsa, "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");
        final TlsIdentity.TlsException e = assertThrows(TlsIdentity.TlsException.class,
            () -> TlsIdentity.fromPem(server.certificatePem(), rsa, List.of()));
        assertTrue(e.getMessage().contains("openssl pkcs8 -topk8 -nocrypt"), e.getMessage());
        final TlsIdentity.TlsException none = assertThrows(TlsIdentity.TlsException.class,
            () -> TlsIdentity.fromPem(server.privateKeyPem(), server.privateKeyPem(), List.of()));
        assertTrue(none.getMessage().contains("holds no certificate") || none.getMessage().contains("cannot be read"),
            none.getMessage());
    }

    @Test
    void anUnknownProtocolIsRefused() {
        final TlsIdentity.TlsException e = assertThrows(TlsIdentity.TlsException.class,
            () -> TlsIdentity.fromPem(server.certificatePem(), server.privateKeyPem(), List.of("TLSv9")));
        assertTrue(e.getMessage().contains("protocol 'TLSv9' is not one this JVM offers"), e.getMessage());
        // Supported by the JVM but turned off by jdk.tls.disabledAlgorithms: every handshake would fail, so the start does.
        final TlsIdentity.TlsException old = assertThrows(TlsIdentity.TlsException.class,
            () -> TlsIdentity.fromPem(server.certificatePem(), server.privateKeyPem(), List.of("TLSv1.1")));
        assertTrue(old.getMessage().contains("protocol 'TLSv1.1' is not one this JVM offers"), old.getMessage());
    }

    @Test
    void theYamlFormIsReadRelativeToItsFileAndItsMistakesHaveALine() throws Exception {
        final TlsIdentity pem = parse("tls:\n  certificate: " + server.certificatePem().getFileName() + "\n  privateKey: "
            + server.privateKeyPem().getFileName() + "\n  protocols: [TLSv1.3]\n");
        assertEquals(List.of("TLSv1.3"), List.of(pem.serverEngine().getEnabledProtocols()));
        final TlsIdentity store = parse("tls: {keyStore: " + server.keyStore().getFileName() + ", keyStorePassword: "
            + TestCertificates.PASSWORD + "}\n");
        assertEquals(pem.certificate(), store.certificate());
        final ConfigException both = assertThrows(ConfigException.class, () -> parse("tls:\n  keyStore: a.p12\n  keyStorePassword: x\n"
            + "  certificate: b.crt\n"));
        assertEquals("t.yaml:2: tls: give either keyStore or certificate and privateKey, not both", both.getMessage());
        final ConfigException missing = assertThrows(ConfigException.class, () -> parse("tls:\n  keyStore: nope.p12\n"
            + "  keyStorePassword: x\n"));
        assertEquals("t.yaml:2: tls: key store " + dir.resolve("nope.p12") + " is not a readable file", missing.getMessage());
    }

    private static TlsIdentity parse(final String text) throws ConfigException {
        final ConfigYaml yaml = new ConfigYaml("t.yaml", text.getBytes(StandardCharsets.UTF_8));
        final var top = yaml.mapping(yaml.root("tls"), java.util.Set.of("tls"));
        return TlsIdentity.fromYaml(yaml, top.get("tls"), dir);
    }
}
