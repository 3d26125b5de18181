package org.sessionj.transport.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * PEM text (RFC 7468) with the JDK only: the blocks of a file, and a block for DER bytes. Text
 * outside blocks (comments, {@code Bag Attributes} lines openssl writes) is ignored, as openssl does.
 */
final class Pem {
    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";

    /** One block: its label ({@code CERTIFICATE}, {@code PRIVATE KEY}, …), whether it has RFC 1421
     * headers ({@code Proc-Type: 4,ENCRYPTED}: an encrypted traditional key), and its bytes. */
    record Block(String label, boolean encryptedHeader, byte[] der) {
    }

    private Pem() {
    }

    /** The blocks of {@code file}, in order. */
    static List<Block> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith(BEGIN) || !line.endsWith(DASHES)) {
                continue;
            }
            String label = line.substring(BEGIN.length(), line.length() - DASHES.length());
            StringBuilder base64 = new StringBuilder();
            boolean encrypted = false;
            int j = i + 1;
            for (; j < lines.size(); j++) {
                String body = lines.get(j).strip();
                if (body.equals(END + label + DASHES)) {
                    break;
                }
                if (body.contains(":")) {
                    encrypted |= body.startsWith("Proc-Type:") && body.contains("ENCRYPTED");
                } else {
                    base64.append(body);
                }
            }
            if (j == lines.size()) {
                throw new IOException("the PEM block " + label + " in " + file + " has no END line");
            }
            byte[] der;
            try {
                der = Base64.getDecoder().decode(base64.toString());
            } catch (IllegalArgumentException e) {
                throw new IOException("the PEM block " + label + " in " + file + " is not valid base64: "
                        + e.getMessage(), e);
            }
            blocks.add(new Block(label, encrypted, der));
            i = j;
        }
        return blocks;
    }

    /** The PEM text of one block. */
    static String encode(String label, byte[] der) {
        return BEGIN + label + DASHES + "\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n"
                + END + label + DASHES + "\n";
    }

    /** How an error message names a block. */
    static String describe(Block block) {
        return switch (block.label()) {
            case "CERTIFICATE" -> "a CERTIFICATE";
            case "PRIVATE KEY" -> "a PRIVATE KEY";
            case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> "a traditional private key";
            default -> "a " + block.label() + " block";
        };
    }
}
