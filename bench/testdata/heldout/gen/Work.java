import java.util.*;
import java.util.concurrent.*;
import java.util.regex.*;
public class Work {
  public static void main(String[] a) throws Exception {
    List<byte[]> keep = new ArrayList<>();
    ExecutorService ex = Executors.newFixedThreadPool(3);
    for (int r = 0; r < 40; r++) {
      final int rr = r;
      ex.submit(() -> { StringBuilder sb = new StringBuilder(); for (int i = 0; i < 2000; i++) sb.append(String.format("%d,%s;", i, UUID.randomUUID())); return Pattern.compile("(\\d+),").matcher(sb).results().count(); }).get();
      for (int i = 0; i < 20000; i++) { byte[] b = new byte[1024 + (i % 7) * 512]; if (i % 97 == 0) keep.add(b); }
      if (keep.size() > 3000) keep.subList(0, 2000).clear();
      if (r % 10 == 0) { new TreeMap<String,Integer>().put("x", 1); new java.text.SimpleDateFormat("yyyy").format(new Date()); System.gc(); }
    }
    ex.shutdown();
  }
}
