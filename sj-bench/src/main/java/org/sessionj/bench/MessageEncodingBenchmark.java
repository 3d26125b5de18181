package org.sessionj.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.BeansClient;
import org.sessionj.bench.BenchProtocols.BeansServer;
import org.sessionj.bench.BenchProtocols.DoublesClient;
import org.sessionj.bench.BenchProtocols.DoublesServer;
import org.sessionj.bench.BenchProtocols.Particle;
import org.sessionj.bench.BenchProtocols.ParticleBean;
import org.sessionj.bench.BenchProtocols.ParticlesClient;
import org.sessionj.bench.BenchProtocols.ParticlesServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The n-Body message — {@code bodies} particles of four doubles — sent ({@code send}, a copy) to an
 * echo peer and back, in one open session: as an array of a flat record (field by field), as an
 * array of a bean (Jackson Smile), and as the MPI programs' packed {@code double[]} (the floor); over
 * the in-JVM transport, cross-process shared memory and TCP loopback. One operation is one round trip.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class MessageEncodingBenchmark {
    @Param({"record", "bean", "doubles"})
    public String encoding;

    @Param({"500"})
    public int bodies;

    /** {@code ipc}: shared memory as between two JVMs on one host (set up over TCP, as there). */
    @Param({"shm", "ipc", "tcp"})
    public String transport;

    private SJServerSocket server;
    private Thread peer;
    private SJSocket session;
    private Object message;

    @Setup(Level.Trial)
    public void open() {
        SJRuntimeConfig.Builder config = SJRuntimeConfig.builder();
        SJRuntime runtime = SJRuntime.create((transport.equals("ipc")
                ? config.setupTransports("tcp").sessionTransports("ipc") : config.transports(transport)).build());
        server = runtime.serverSocket(switch (encoding) {
            case "record" -> ParticlesServer.class;
            case "bean" -> BeansServer.class;
            default -> DoublesServer.class;
        }, 0);
        peer = Thread.ofPlatform().daemon().start(() -> {
            try (SJSocket s = server.accept()) {
                while (s.inwhile()) {
                    s.send(s.receive());
                }
            }
        });
        session = runtime.service(switch (encoding) {
            case "record" -> ParticlesClient.class;
            case "bean" -> BeansClient.class;
            default -> DoublesClient.class;
        }, "localhost", server.port()).request();
        message = switch (encoding) {
            case "record" -> {
                Particle[] particles = new Particle[bodies];
                for (int i = 0; i < bodies; i++) {
                    particles[i] = new Particle(i, -i, 0.5 * i, 1.0 / bodies);
                }
                yield particles;
            }
            case "bean" -> {
                ParticleBean[] beans = new ParticleBean[bodies];
                for (int i = 0; i < bodies; i++) {
                    beans[i] = new ParticleBean();
                    beans[i].x = i;
                    beans[i].y = -i;
                    beans[i].z = 0.5 * i;
                    beans[i].mass = 1.0 / bodies;
                }
                yield beans;
            }
            default -> {
                double[] packed = new double[4 * bodies];
                for (int i = 0; i < bodies; i++) {
                    packed[4 * i] = i;
                    packed[4 * i + 1] = -i;
                    packed[4 * i + 2] = 0.5 * i;
                    packed[4 * i + 3] = 1.0 / bodies;
                }
                yield packed;
            }
        };
    }

    @TearDown(Level.Trial)
    public void close() throws InterruptedException {
        session.outwhile(false);
        session.close();
        server.close();
        peer.join();
    }

    @Benchmark
    public Object roundTrip() {
        session.outwhile(true);
        session.send(message);
        return session.receive();
    }
}
