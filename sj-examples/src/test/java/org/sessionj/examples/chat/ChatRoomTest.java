package org.sessionj.examples.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The room's bounds, on a test clock: members that never join do not keep it full (hostile18 H8). */
class ChatRoomTest {
    private final AtomicLong now = new AtomicLong();
    private final ChatRoom room = new ChatRoom(3, 20, 10, Duration.ofSeconds(30), now::get);

    @Test
    void membersThatNeverJoinAreDroppedOnceTheJoinTimeoutHasPassedWhenTheRoomIsFull() throws Exception {
        Member joined = room.register("alice");
        room.join(joined);
        Member squat1 = room.register("squat");
        Member squat2 = room.register("squat");
        now.set(Duration.ofSeconds(29).toNanos());
        assertThat(room.register("bob")).as("full, and the squatters are still within their time to join").isNull();
        assertThat(squat1.closed()).isFalse();

        now.set(Duration.ofSeconds(30).toNanos());
        Member bob = room.register("bob");
        assertThat(bob).as("the squatters that did not join made room").isNotNull();
        assertThat(squat1.closed()).isTrue();
        assertThat(squat2.closed()).isTrue();
        assertThat(joined.closed()).as("a member that joined stays, however long ago").isFalse();
        assertThat(squat1.next(0)).isEqualTo(new Outgoing.Drop("did not join the chat within 30 s"));
        assertThat(room.names()).containsExactly("alice");
    }

    @Test
    void aRoomThatIsNotFullDropsNobody() {
        Member squat = room.register("squat");
        now.set(Duration.ofMinutes(5).toNanos());
        assertThat(room.register("bob")).isNotNull();
        assertThat(squat.closed()).as("only a full room looks for members to drop").isFalse();
    }
}
