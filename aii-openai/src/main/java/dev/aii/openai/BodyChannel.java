package dev.aii.openai;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A response body as a queue of what the HTTP client delivered, in order:
 * the bytes of each delivery, then the end or the failure. Unlike the JDK's
 * own body stream, which throws as soon as the connection fails and drops the
 * bytes it has not handed over yet, this gives every delivered byte to the
 * reader before the failure. One reader thread; {@link #close()} from any
 * thread wakes it.
 */
final class BodyChannel implements HttpResponse.BodySubscriber<BodyChannel> {

    /** What {@link #next} found. */
    static final class Item {
        static final Item END = new Item(null, null);
        static final Item CLOSED = new Item(null, null);

        final byte[] bytes;
        final Throwable failure;

        private Item(byte[] bytes, Throwable failure) {
            this.bytes = bytes;
            this.failure = failure;
        }

        boolean isData() {
            return bytes != null;
        }

        boolean isFailure() {
            return failure != null;
        }
    }

    private final BlockingQueue<Item> items = new LinkedBlockingQueue<>();
    private volatile Flow.Subscription subscription;
    private volatile boolean closed;
    private boolean finished;

    /** A handler whose every response body is a new channel. */
    static HttpResponse.BodyHandler<BodyChannel> handler() {
        return info -> new BodyChannel();
    }

    @Override
    public CompletionStage<BodyChannel> getBody() {
        return CompletableFuture.completedFuture(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (closed) {
            s.cancel();
        } else {
            s.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        int size = 0;
        for (ByteBuffer b : buffers) {
            size += b.remaining();
        }
        byte[] bytes = new byte[size];
        int at = 0;
        for (ByteBuffer b : buffers) {
            int n = b.remaining();
            b.get(bytes, at, n);
            at += n;
        }
        items.add(new Item(bytes, null));
    }

    @Override
    public void onError(Throwable failure) {
        items.add(new Item(null, failure));
    }

    @Override
    public void onComplete() {
        items.add(Item.END);
    }

    /**
     * The next delivery, the end, the failure, or {@link Item#CLOSED} once
     * closed; {@code null} when nothing came within {@code wait}. After the
     * end, the failure or the close, every call returns the same.
     */
    Item next(Duration wait) throws InterruptedException {
        if (closed) {
            return Item.CLOSED;
        }
        if (finished) {
            return Item.END;
        }
        Item item = items.poll(Math.max(1, wait.toNanos()), TimeUnit.NANOSECONDS);
        if (item == null) {
            return null;
        }
        if (item == Item.CLOSED || closed) {
            return Item.CLOSED;
        }
        if (item.isData()) {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.request(1);
            }
        } else {
            finished = true;
        }
        return item;
    }

    /** Stops the body: the connection is dropped, and a reader waiting in {@link #next} wakes up. */
    void close() {
        closed = true;
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
        items.add(Item.CLOSED);
    }
}
