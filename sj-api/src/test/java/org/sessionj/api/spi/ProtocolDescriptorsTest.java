package org.sessionj.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.invoke.MethodHandles;
import org.junit.jupiter.api.Test;

/**
 * Descriptor classes hand their protocol's descriptor over in their static initialiser, each with its own
 * lookup; nothing else can define one.
 */
class ProtocolDescriptorsTest {

    @Test
    void aDescriptorClassDefinesItsTextJoinedFromItsParts() throws Exception {
        Class<?> holder = Class.forName(Sample$$SJProtocol.class.getName(), true, getClass().getClassLoader());
        assertThat(ProtocolDescriptors.defined(holder)).contains("cbegin.!<java.lang.String>");
    }

    @Test
    void aClassThatDefinedNothingHasNoDescriptor() {
        assertThat(ProtocolDescriptors.defined(ProtocolDescriptorsTest.class)).isEmpty();
    }

    @Test
    void aLookupOfAClassNotNamedAsADescriptorIsRefused() {
        assertThatThrownBy(() -> ProtocolDescriptors.define(MethodHandles.lookup(), "cbegin"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only by the classes sj-processor generates")
                .hasMessageContaining(ProtocolDescriptorsTest.class.getName());
        assertThat(ProtocolDescriptors.defined(ProtocolDescriptorsTest.class)).isEmpty();
    }

    @Test
    void aLookupWithoutFullPrivilegeIsRefusedEvenForADescriptorClass() {
        MethodHandles.Lookup reduced = Sample$$SJProtocol.LOOKUP.dropLookupMode(MethodHandles.Lookup.PRIVATE);
        assertThatThrownBy(() -> ProtocolDescriptors.define(reduced, "sbegin"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without full privilege access");
        assertThatThrownBy(() -> ProtocolDescriptors.define(MethodHandles.publicLookup(), "sbegin"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ProtocolDescriptors.defined(Sample$$SJProtocol.class)).contains("cbegin.!<java.lang.String>");
    }
}
