cbegin.!<java.lang.Integer>.?(java.util.List<java.lang.String>)
