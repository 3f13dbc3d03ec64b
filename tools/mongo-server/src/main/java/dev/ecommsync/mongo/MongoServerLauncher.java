package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/**
 * Runs mongo-java-server on a chosen host and port until SIGTERM.
 *
 * Usage: java -jar mongo-server.jar [--host 127.0.0.1] [--port 27017] [--h2 path/to/file.mv]
 * Without --h2 the data lives in memory and is gone when the process stops. With --h2 every write
 * command is committed and synced to the file before its reply goes out ({@link DurableH2Backend}),
 * so an acknowledged write survives a kill of the process. On either backend, commands that create
 * the same collection at once create it once ({@link CollectionCreationLocks}).
 * Prints one line "mongo-server listening on HOST:PORT" once it accepts connections
 * (tools/infra/mongo-server.cjs starts it and waits until the port accepts connections).
 */
public final class MongoServerLauncher {

    private MongoServerLauncher() {
    }

    public static void main(String[] args) throws InterruptedException {
        String host = "127.0.0.1";
        int port = 27017;
        String h2File = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--host" -> host = requireValue(args, ++i, "--host");
                case "--port" -> port = parsePort(requireValue(args, ++i, "--port"));
                case "--h2" -> h2File = requireValue(args, ++i, "--h2");
                default -> fail("unknown argument " + args[i] + "; expected --host, --port or --h2");
            }
        }

        MongoBackend backend = h2File == null ? new LockingMemoryBackend() : DurableH2Backend.open(h2File);
        MongoServer server = new MongoServer(backend);
        server.bind(host, port);
        InetSocketAddress address = server.getLocalAddress();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            stopped.countDown();
        }));
        System.out.println("mongo-server listening on " + address.getHostString() + ":" + address.getPort());
        System.out.flush();
        stopped.await();
    }

    private static String requireValue(String[] args, int index, String flag) {
        if (index >= args.length) {
            fail(flag + " needs a value");
        }
        return args[index];
    }

    private static int parsePort(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port < 0 || port > 65535) {
                fail("--port must be between 0 and 65535, got " + value);
            }
            return port;
        } catch (NumberFormatException e) {
            fail("--port must be a number, got " + value);
            return -1;
        }
    }

    private static void fail(String message) {
        System.err.println("mongo-server: " + message);
        System.exit(2);
    }
}
