package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer;
import com.fasterxml.jackson.dataformat.smile.SmileConstants;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileFactoryBuilder;
import com.fasterxml.jackson.dataformat.smile.SmileParser;
import java.io.IOException;
import java.io.InputStream;

/**
 * The Smile factory of {@link SmileCodec}: its parsers are {@link CheckedSmileParser}s, which refuse text
 * that is not UTF-8 and a {@code BigDecimal} past {@code sessionj.codec.maxNumberScale}. A parser is made
 * over the whole value in one array (what a frame gives, {@link ValueCodec#readObject}); one asked for over
 * a stream reads the stream first, so that the checks see every token's bytes in one buffer.
 */
final class CheckedSmileFactory extends SmileFactory {
    private static final long serialVersionUID = 1L;

    private final int maxScale;

    CheckedSmileFactory(SmileFactoryBuilder builder, int maxScale) {
        super(builder);
        this.maxScale = maxScale;
    }

    /** What {@code SmileParserBootstrapper} does over an array, with the checked parser. */
    @Override
    protected SmileParser _createParser(byte[] data, int offset, int length, IOContext context) throws IOException {
        _streamReadConstraints.validateDocumentLength(length);
        ByteQuadsCanonicalizer symbols = _byteSymbolCanonicalizer.makeChildOrPlaceholder(_factoryFeatures);
        int end = offset + length;
        CheckedSmileParser parser = new CheckedSmileParser(context, _parserFeatures, _smileParserFeatures, _objectCodec,
                symbols, data, offset, end, maxScale);
        boolean header = offset < end && data[offset] == SmileConstants.HEADER_BYTE_1
                && parser.readHeader();
        if (!header && offset < end && SmileParser.Feature.REQUIRE_HEADER.enabledIn(_smileParserFeatures)) {
            throw new JsonParseException(parser, String.format(java.util.Locale.ROOT,
                    "Input does not start with Smile format header (first byte = 0x%02X)", data[offset] & 0xFF));
        }
        return parser;
    }

    @Override
    protected SmileParser _createParser(InputStream in, IOContext context) throws IOException {
        byte[] all = in.readAllBytes();
        return _createParser(all, 0, all.length, context);
    }

    @Override
    public SmileFactory copy() {
        return new CheckedSmileFactory(rebuild(), maxScale);
    }
}
