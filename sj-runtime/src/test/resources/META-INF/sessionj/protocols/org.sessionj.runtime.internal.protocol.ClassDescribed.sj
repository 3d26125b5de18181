cbegin.!<java.lang.Long>
