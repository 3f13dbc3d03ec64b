package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.bson.Document;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Commands the server ran, in serverStatus's {@code opcounters} shape, which mongo-java-server does not
 * report: benchmarks read the operations of every process of a stack from here. Each command counts
 * once (an insert of many documents is one insert; the real server counts those per document).
 */
final class OperationCounters {

    private final AtomicLong insert = new AtomicLong();
    private final AtomicLong query = new AtomicLong();
    private final AtomicLong update = new AtomicLong();
    private final AtomicLong delete = new AtomicLong();
    private final AtomicLong getmore = new AtomicLong();
    private final AtomicLong command = new AtomicLong();

    void count(String commandName) {
        switch (commandName.toLowerCase(Locale.ROOT)) {
            case "insert" -> insert.incrementAndGet();
            case "find" -> query.incrementAndGet();
            case "update" -> update.incrementAndGet();
            case "delete" -> delete.incrementAndGet();
            case "getmore" -> getmore.incrementAndGet();
            default -> command.incrementAndGet();
        }
    }

    /** The server status with {@code opcounters} added. */
    Document addTo(Document serverStatus) {
        serverStatus.put("opcounters", new Document()
            .append("insert", insert.get())
            .append("query", query.get())
            .append("update", update.get())
            .append("delete", delete.get())
            .append("getmore", getmore.get())
            .append("command", command.get()));
        return serverStatus;
    }
}
