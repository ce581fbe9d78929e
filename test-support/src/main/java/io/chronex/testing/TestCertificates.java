package io.chronex.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed server certificate for tests of TLS ports, made with the JDK's own keytool (so no
 * library and no network): for localhost and 127.0.0.1, in a PKCS#12 key store, as PEM files, and a
 * trust store a client can check the server against.
 */
public final class TestCertificates {
    /** The password of both stores. */
    public static final String PASSWORD = "changeit";

    /** The files made. */
    public record Generated(Path keyStore, Path certificatePem, Path privateKeyPem, Path trustStore) {
    }

    private TestCertificates() {
    }

    /** Makes the files in {@code dir} for a certificate valid from now for {@code days} days. */
    public static Generated create(final Path dir, final int days) throws IOException, InterruptedException, GeneralSecurityException {
        return create(dir, days, "CN=localhost");
    }

    /** As above with the given subject; the files are named after it, so several fit in one dir. */
    public static Generated create(final Path dir, final int days, final String subject)
        throws IOException, InterruptedException, GeneralSecurityException {
        return create(dir, subject, "+0d", days);
    }

    /** A certificate valid from {@code start} (keytool's -startdate, e.g. "-10d") for {@code days} days. */
    public static Generated create(final Path dir, final String subject, final String start, final int days)
        throws IOException, InterruptedException, GeneralSecurityException {
        final String name = subject.replaceFirst("^CN=", "").replaceAll("[^A-Za-z0-9]", "").toLowerCase(java.util.Locale.ROOT);
        final Path keyStore = dir.resolve(name + ".p12");
        final Path certificate = dir.resolve(name + ".crt");
        final Path key = dir.resolve(name + ".key");
        final Path trust = dir.resolve(name + "-trust.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", subject, "-ext",
            "SAN=dns:localhost,ip:127.0.0.1", "-startdate", start, "-validity", Integer.toString(days), "-storetype", "PKCS12", "-keystore",
            keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-file",
            certificate.toString());
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", certificate.toString(), "-storetype", "PKCS12",
            "-keystore", trust.toString(), "-storepass", PASSWORD);
        final KeyStore store = KeyStore.getInstance(keyStore.toFile(), PASSWORD.toCharArray());
        final Key privateKey = store.getKey("server", PASSWORD.toCharArray());
        java.nio.file.Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(privateKey.getEncoded())
            + "\n-----END PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
        return new Generated(keyStore, certificate, key, trust);
    }

    private static void keytool(final String... args) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
