package dev.ecommsync.mongo;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import de.bwaldvogel.mongo.bson.Document;

/**
 * Documents each collection compared with a filter, whether an index found them or a scan did:
 * what tells a query that went by an index (a few) from one that scanned the collection (all of
 * them). serverStatus reports it as {@code ecommDocumentsExamined}, by {@code database.collection}.
 * One server runs per process, so the counts are the process's.
 */
final class DocumentsExamined {

    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

    private DocumentsExamined() {
    }

    /** The counter of one collection, by its full name. */
    static LongAdder of(String fullName) {
        return COUNTS.computeIfAbsent(fullName, name -> new LongAdder());
    }

    /** A dropped collection's counter goes with it: test runs create and drop thousands. */
    static void forget(String fullName) {
        COUNTS.remove(fullName);
    }

    static Document addTo(Document serverStatus) {
        Document counts = new Document();
        new TreeMap<>(COUNTS).forEach((name, count) -> counts.put(name, count.sum()));
        serverStatus.put("ecommDocumentsExamined", counts);
        return serverStatus;
    }
}
